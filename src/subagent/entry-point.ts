import type { Agent } from "../platform/agent.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import type { ProcessOptions } from "../platform/process-options.js";
import { AbstractTool } from "../tool/abstract-tool.js";
import type { ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import type { TypeToken } from "../tool/type-token.js";
import { withCallContext } from "./child-process-options.js";
import { communicatedResult } from "./communicated-result.js";
import { objectInputSchema, parseInput } from "./tool-input.js";

/**
 * What AgentTool and GoalTool share: a tool for the outside world that runs
 * an agent on the LLM's input as a new top-level process. Its input schema is
 * the input type's; bad input is answered with `BAD INPUT ERROR parsing tool
 * input: …`; the call's `ToolCallContext` reaches the run's tools; a
 * completed run's result comes back as text, a waiting one says so, any other
 * end is an error result naming the agent.
 */
export abstract class EntryPointTool<T> extends AbstractTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;

  protected constructor(
    protected readonly platform: AgentPlatform,
    name: string,
    description: string,
    /** The type the caller provides. */
    readonly inputType: TypeToken<T>,
  ) {
    super();
    this.definition = toolDefinition(name, description, objectInputSchema(inputType, name));
  }

  /** The options of one run, before the call's context is merged in. */
  protected abstract runOptions(): ProcessOptions;

  /** The agent one run runs. */
  protected abstract runAgent(): Agent;

  /** Runs the agent on `input` (JSON of its input type) as a child of the calling process; the result is its output. */
  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const processOptions = withCallContext(this.runOptions(), context);
    const agent = this.runAgent();
    const parsed = parseInput(input, this.inputType);
    if (!parsed.ok) {
      return ToolResult.error(
        `BAD INPUT ERROR parsing tool input: ${parsed.message}: Try again and see if you can get the format right`,
      );
    }
    const { signal } = options;
    const process = await this.platform.runAgent(agent, parsed.value, {
      processOptions,
      ...(signal ? { signal } : {}),
    });
    signal?.throwIfAborted();
    if (process.status === "completed") return ToolResult.text(communicatedResult(process.result));
    if (process.status === "waiting") {
      // The process rides along as the cause: an MCP server elicits the answers from its client.
      const requests = process.awaiting.map((request) => `${request.id} ${request.what}`).join("; ");
      return ToolResult.error(
        `Agent '${agent.name}' is waiting for a person (process ${process.id}): ${requests}. Answer with platform.respond("${process.id}", "<request id>", …).`,
        process,
      );
    }
    const reason = process.statusReason ? `: ${process.statusReason}` : "";
    return ToolResult.error(`Agent '${agent.name}' ${process.status}${reason}`, process.failure);
  }
}
