import type { OperationContext } from "../platform/operation-context.js";
import { type AgenticSession, AgenticTool, defaultAgenticSystemPrompt } from "./agentic-tool.js";

/**
 * An agentic tool whose sub-tools are all offered from the start; the nested
 * LLM decides which to use (a calculator over add, multiply, divide).
 *
 * @example
 * const math = SimpleAgenticTool.create("math-orchestrator", "Orchestrates math operations")
 *   .withTools(addTool, multiplyTool)
 *   .withParameter(Tool.Parameter.string("expression", "Math expression to evaluate"));
 */
export class SimpleAgenticTool extends AgenticTool {
  /** A tool called `name` doing what `description` says (the default system prompt's task). */
  static create(name: string, description: string): SimpleAgenticTool {
    return new SimpleAgenticTool(name, description);
  }

  protected get interactionKind(): string {
    return "simple-agentic-tool";
  }

  protected configurationProblem(): string | undefined {
    return this.hasToolsOrChaining ? undefined : "No tools available for SimpleAgenticTool";
  }

  protected startSession(_context: OperationContext, _input: string): AgenticSession {
    return {
      tools: this.innerTools,
      defaultSystemPrompt: defaultAgenticSystemPrompt(this.definition.description),
    };
  }
}
