import type { DomainToolPredicate } from "../chaining/domain-tool-predicate.js";
import { type ToolChaining, ToolChainingConfig } from "../chaining/tool-chaining.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { MaxIterationsExceededError } from "../errors/max-iterations-exceeded-error.js";
import { LlmOptions, type LlmOptionsInit } from "../llm/llm-options.js";
import type { ToolInjectionStrategy } from "../loop/tool-injection-strategy.js";
import type { AgentPlatform } from "../platform/agent-platform.js";
import { AgentProcess } from "../platform/agent-process.js";
import type { OperationContext } from "../platform/operation-context.js";
import { operationContext } from "../platform/process-operation-context.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import type { SkillSet } from "../prompt/skill-set.js";
import { AbstractTool, DelegatingTool } from "../tool/abstract-tool.js";
import { distinctByName } from "../tool/distinct-tools.js";
import { InputSchema } from "../tool/input-schema.js";
import { safelyFromInstance } from "../tool/instance-tools.js";
import type { Param } from "../tool/param.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition, validateToolName } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import type { TypeLike, TypeOf } from "../tool/type-token.js";
import type { NestedTool } from "../tool/unfolding.js";
import { ArtifactCapture } from "./artifact-capture.js";

/** Builds an agentic tool's system prompt from the operation context and the input the outer LLM sent. */
export type AgenticSystemPromptCreator = (context: OperationContext, input: string) => string;

/** @default 20 */
const DEFAULT_MAX_ITERATIONS = 20;

/** The configuration every agentic tool shares (immutable). */
interface AgenticToolConfig {
  readonly name: string;
  readonly description: string;
  readonly parameters: readonly Param[];
  readonly llm: LlmOptions | undefined;
  readonly systemPrompt: string | AgenticSystemPromptCreator | undefined;
  readonly maxIterations: number;
  readonly tools: readonly Tool[];
  readonly chaining: ToolChainingConfig;
  readonly captureNestedArtifacts: boolean;
}

/** What one call of an agentic tool offers its nested loop. */
export interface AgenticSession {
  /** The sub-tools, wrapped as the variant needs (locks, state checks). */
  readonly tools: readonly Tool[];
  /** The variant's default system prompt, used unless one was set. */
  readonly defaultSystemPrompt: string;
  /** Strategies that observe (or change) the nested loop's tool list, besides artifact capture. @default [] */
  readonly injectionStrategies?: readonly ToolInjectionStrategy[];
}

/** The default system prompt: the task is the tool's description. */
export function defaultAgenticSystemPrompt(description: string): string {
  return `You are an intelligent agent that can use tools to help you complete tasks.\nUse the provided tools to perform the following task:\n${description}`;
}

const agenticBrand = Symbol.for("embabel-ts.agentic-tool");

/** True for agentic tools, across package copies (through decorators use `DelegatingTool.unwrap`). */
export function isAgenticTool(tool: Tool): tool is AgenticTool {
  return (tool as unknown as Record<symbol, unknown>)[agenticBrand] === true;
}

/**
 * A tool that runs its own LLM tool loop over sub-tools: the outer LLM calls
 * it with input, a nested loop (through the current process's prompt runner,
 * so its usage counts in the process and its budget applies) works with the
 * sub-tools, and the nested loop's final text is the result, with the
 * artifacts the sub-tools returned. Every `with*` returns a modified copy.
 * `SimpleAgenticTool`, `PlaybookTool` and `StateMachineTool` extend it.
 */
export abstract class AgenticTool extends AbstractTool implements NestedTool, ToolChaining<AgenticTool> {
  readonly [agenticBrand] = true;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  protected config: AgenticToolConfig;
  private cachedDefinition: ToolDefinition | undefined;

  constructor(name: string, description: string) {
    super();
    validateToolName(name);
    this.config = {
      name,
      description,
      parameters: [],
      llm: undefined,
      systemPrompt: undefined,
      maxIterations: DEFAULT_MAX_ITERATIONS,
      tools: [],
      chaining: ToolChainingConfig.NONE,
      captureNestedArtifacts: false,
    };
  }

  /** Name, description, and an input schema of the parameters added with `withParameter`. */
  get definition(): ToolDefinition {
    this.cachedDefinition ??= toolDefinition(
      this.config.name,
      this.config.description,
      InputSchema.of(...this.config.parameters),
    );
    return this.cachedDefinition;
  }

  /** The LLM options of the nested loop; `undefined` uses the platform's default model. */
  get llm(): LlmOptions | undefined {
    return this.config.llm;
  }

  /** The maximum LLM rounds of the nested loop. @default 20 */
  get maxIterations(): number {
    return this.config.maxIterations;
  }

  /** Whether artifacts of nested agentic tools are captured. @default false */
  get captureNestedArtifacts(): boolean {
    return this.config.captureNestedArtifacts;
  }

  /** The tool chaining configured (registered types, auto-discovery). */
  get toolChaining(): ToolChainingConfig {
    return this.config.chaining;
  }

  /** The sub-tools, as configured (unwrapped). */
  get innerTools(): readonly Tool[] {
    return this.config.tools;
  }

  /** A copy using `llm` for the nested loop. */
  withLlm(llm: LlmOptions | LlmOptionsInit): this {
    return this.derive({ llm: LlmOptions.of(llm) });
  }

  /** A copy with a fixed system prompt, or one built per call from the operation context and the input. */
  withSystemPrompt(prompt: string | AgenticSystemPromptCreator): this {
    return this.derive({ systemPrompt: prompt });
  }

  /** A copy whose nested loop stops after `maxIterations` LLM rounds (an error result naming the limit). */
  withMaxIterations(maxIterations: number): this {
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      throw new ConfigurationError(
        `${this.config.name}: maxIterations must be a positive integer, got ${maxIterations}.`,
      );
    }
    return this.derive({ maxIterations });
  }

  /** A copy with one more input parameter (`Tool.Parameter.string(...)`, `.integer`, `.double`). */
  withParameter(parameter: Param): this {
    return this.derive({ parameters: [...this.config.parameters, parameter] });
  }

  /** A copy with more sub-tools; a second, different tool with a name already used is a {@link ConfigurationError}. */
  withTools(...tools: Tool[]): this {
    if (tools.length === 0) return this;
    return this.derive({ tools: this.distinct([...this.config.tools, ...tools]) });
  }

  /** Adds Agent Skills as one facade sub-tool (see `PromptRunner.withSkills`). */
  withSkills(skills: SkillSet): this {
    return this.withTools(skills.asTool());
  }

  /** A copy with the `@llmTool` methods of `object` as sub-tools; an object without any returns this same tool. */
  withToolObject(object: object): this {
    const tools = safelyFromInstance(object);
    return tools.length === 0 ? this : this.withTools(...tools);
  }

  /** A copy with the tools of several objects (objects without tool methods are ignored). */
  withToolObjects(...objects: object[]): this {
    return objects.reduce<this>((tool, object) => tool.withToolObject(object), this);
  }

  /** A copy offering the `@llmTool` methods of the last returned instance of `type` (see `PromptRunner.withToolChainingFrom`). */
  withToolChainingFrom<L extends TypeLike>(type: L, predicate?: DomainToolPredicate<TypeOf<L>>): this {
    return this.derive({ chaining: this.config.chaining.from(type, predicate) });
  }

  /** A copy where any returned object with `@llmTool` methods becomes tools on the next LLM call. */
  withToolChainingFromAny(): this {
    return this.derive({ chaining: this.config.chaining.withAny() });
  }

  /** A copy that also captures the artifacts of nested agentic tools (ordinary tools' artifacts always are). @default false */
  withCaptureNestedArtifacts(capture: boolean): this {
    return this.derive({ captureNestedArtifacts: capture });
  }

  /**
   * Runs the nested loop: the user message is `input` (the JSON the outer LLM
   * sent), the context reaches every sub-tool, the signal aborts it. No
   * current agent process, or a tool without sub-tools, is an error result;
   * so is reaching `maxIterations`, so the outer loop goes on.
   */
  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const problem = this.configurationProblem();
    if (problem) return ToolResult.error(problem);
    const process = AgentProcess.current();
    if (!process) {
      // Called by a platform's runner outside any process: run in a short-lived one of its own.
      const inProcess = options.inProcess;
      if (!inProcess) return ToolResult.error("No AgentProcess context available");
      const { inProcess: _, ...inner } = options;
      return inProcess(() => this.call(input, context, inner));
    }
    const platform = process.platform;
    if (!platform) {
      return ToolResult.error(
        "No AgentProcess context available: the current process has no platform (run it with platform.runAgent or platform.runInProcess).",
      );
    }
    const userMessage = input.trim() === "" ? "{}" : input;
    const operation = operationContext(process, undefined, () => platform.ai());
    const session = this.startSession(operation, userMessage);
    const capture = new ArtifactCapture(
      this.config.captureNestedArtifacts
        ? () => false
        : (tool) => DelegatingTool.unwrap(tool, isAgenticTool) !== undefined,
    );
    let runner = this.runner(platform, session, context)
      .withSystemPrompt(this.systemPromptFor(operation, userMessage, session))
      .withInjectionStrategy(capture);
    // The nested loop's approvals are answered by whoever answers the outer loop's (an approval callback, or the process).
    if (options.approvals !== undefined) runner = runner.withApproval(options.approvals);
    for (const strategy of session.injectionStrategies ?? []) runner = runner.withInjectionStrategy(strategy);
    let text: string;
    try {
      text = await runner.generateText(userMessage, options.signal ? { signal: options.signal } : {});
    } catch (error) {
      if (MaxIterationsExceededError.isInstance(error)) {
        return ToolResult.error(`${this.config.name}: ${error.message}`, error);
      }
      throw error;
    }
    const artifacts = capture.artifacts;
    if (artifacts.length === 0) return ToolResult.text(text);
    return ToolResult.withArtifact(text, artifacts.length === 1 ? artifacts[0] : artifacts);
  }

  /** The error message for a configuration that cannot run (no tools), checked before anything else. */
  protected abstract configurationProblem(): string | undefined;

  /** The variant's interaction id prefix (`simple-agentic-tool`): the nested loop is `<prefix>-<name>`. */
  protected abstract get interactionKind(): string;

  /** The tools and default prompt of one call (fresh per-call state). */
  protected abstract startSession(context: OperationContext, input: string): AgenticSession;

  /** The system prompt of one call: the one set with `withSystemPrompt`, else the variant's default. */
  protected systemPromptFor(context: OperationContext, input: string, session: AgenticSession): string {
    const prompt = this.config.systemPrompt;
    if (prompt === undefined) return session.defaultSystemPrompt;
    return typeof prompt === "string" ? prompt : prompt(context, input);
  }

  /** Whether this tool has sub-tools or chaining that could give it some. */
  protected get hasToolsOrChaining(): boolean {
    return this.config.tools.length > 0 || !this.config.chaining.isEmpty;
  }

  /** `tools` without repeats; two different tools with one name throw, naming this tool and the name. */
  protected distinct(tools: readonly Tool[]): Tool[] {
    return distinctByName(
      tools,
      (name) =>
        new ConfigurationError(
          `${this.config.name}: two different sub-tools are named '${name}'. Rename one (tool.withName("...")) or remove it.`,
        ),
    );
  }

  /** A copy with `changes` applied to the shared configuration (and the subclass's own fields kept). */
  protected derive(changes: Partial<AgenticToolConfig> = {}): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this);
    copy.config = Object.freeze({ ...this.config, ...changes });
    copy.cachedDefinition = undefined;
    return copy;
  }

  private runner(platform: AgentPlatform, session: AgenticSession, context: ToolCallContext): PromptRunner {
    let runner = platform
      .ai()
      .withMaxIterations(this.config.maxIterations)
      .withInteractionId(`${this.interactionKind}-${this.config.name}`)
      .withToolCallContext(withoutLoopId(context))
      .withTools([...session.tools]);
    if (this.config.llm) runner = runner.withLlm(this.config.llm);
    return this.config.chaining.isEmpty ? runner : runner.withToolChaining(this.config.chaining);
  }
}

/** The call's context without the outer loop's id, so the nested loop gets its own (one-shot tools count per loop). */
function withoutLoopId(context: ToolCallContext): ToolCallContext {
  if (context.loopId() === undefined) return context;
  return ToolCallContext.of(
    new Map([...context.entries()].filter(([key]) => key !== ToolCallContext.LOOP_ID_KEY)),
  );
}
