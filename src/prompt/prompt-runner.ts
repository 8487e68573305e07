// Over 400 lines: PromptRunner is one immutable builder whose `with…` methods are the chapter's API; its steps (tool resolution, object creation) live in sibling files.
import type { JSONSchema7, LanguageModelV3Message } from "@ai-sdk/provider";
import type { DomainToolPredicate } from "../chaining/domain-tool-predicate.js";
import { type ToolChaining, ToolChainingConfig } from "../chaining/tool-chaining.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { StructuredOutputError } from "../errors/structured-output-error.js";
import { LlmOptions, type LlmOptionsInit } from "../llm/llm-options.js";
import { approvalCallbackAuthority } from "../loop/approval-callback-authority.js";
import { checkMaxToolResultChars } from "../loop/cap-tool-result.js";
import { checkMaxRetries } from "../loop/model-call-retry.js";
import type { ToolInjectionStrategy } from "../loop/tool-injection-strategy.js";
import type { ApprovalAuthority, ApprovalCallback } from "../tool/approval-authority.js";
import type { Tool } from "../tool/tool.js";
import { ToolCallContext, type ToolCallContextInit } from "../tool/tool-call-context.js";
import { type TypeLike, type TypeOf, TypeToken } from "../tool/type-token.js";
import { type GenerateResult, GenerateResultCollector } from "./generate-result.js";
import type { LlmReference } from "./llm-reference.js";
import type { AssistantMessage, Message } from "./message.js";
import type { PromptRunnerServices } from "./prompt-runner-services.js";
import type { PromptRunnerState } from "./prompt-runner-state.js";
import { runInteraction } from "./run-interaction.js";
import type { SkillSet } from "./skill-set.js";
import { correctionMessage, outputInstructions, parseOutput } from "./structured-output.js";
import { type TextStream, textStream } from "./text-stream.js";
import { ToolGroup } from "./tool-group.js";
import type { ToolGroupRequirement } from "./tool-group-registry.js";
import { ToolObject } from "./tool-object.js";
import { appendSources, type ToolSource } from "./tool-source.js";

/** Per-call options of the execution methods. */
export interface PromptCallOptions {
  /** Aborts this call (combined with the runner's and the process's signals). */
  readonly signal?: AbortSignal;
}

/** A tool group given by role, by instance, or as a requirement with tool names it must offer. */
export type ToolGroupSpec = string | ToolGroup | ToolGroupRequirement;

/** Creates objects of one type: `runner.creating(schema).fromPrompt(prompt)`. */
export interface ObjectCreator<T> {
  /** The object the model produces for `prompt`, validated against the type. */
  fromPrompt(prompt: string, options?: PromptCallOptions): Promise<T>;
}

/** @default 20 */
const DEFAULT_MAX_ITERATIONS = 20;

function userMessage(text: string): LanguageModelV3Message {
  return { role: "user", content: [{ type: "text", text }] };
}

function toModelMessage(message: Message): LanguageModelV3Message {
  return message.role === "user"
    ? userMessage(message.content)
    : { role: "assistant", content: [{ type: "text", text: message.content }] };
}

function groupSource(spec: ToolGroupSpec): ToolSource {
  if (typeof spec === "string") return { kind: "group", group: { role: spec } };
  return { kind: "group", group: ToolGroup.isToolGroup(spec) ? spec : { ...spec } };
}

/**
 * `state` with `changes` applied, frozen. Written field by field, not as
 * `{ ...state, ...changes }`: spreading a non-empty object takes V8's slow
 * path and gives every runner state its own hidden class.
 */
function stateWith(state: PromptRunnerState, changes: Partial<PromptRunnerState>): PromptRunnerState {
  const pick = <K extends keyof PromptRunnerState>(key: K): PromptRunnerState[K] =>
    key in changes ? (changes[key] as PromptRunnerState[K]) : state[key];
  return Object.freeze({
    services: pick("services"),
    llm: pick("llm"),
    sources: pick("sources"),
    references: pick("references"),
    context: pick("context"),
    systemPrompts: pick("systemPrompts"),
    maxIterations: pick("maxIterations"),
    maxRetries: pick("maxRetries"),
    maxToolResultChars: pick("maxToolResultChars"),
    strategies: pick("strategies"),
    signal: pick("signal"),
    chaining: pick("chaining"),
    interactionId: pick("interactionId"),
    approvals: pick("approvals"),
  });
}

/**
 * The fluent, immutable API for one LLM interaction: choose the model, add
 * tools (single tools, tool objects, tool groups, references), context and
 * system prompts, then `generateText`, `createObject` or `respond`. Every
 * `with*` returns a new runner. Inside an agent process, the process's
 * context, budget and event stream apply automatically.
 */
export class PromptRunner implements ToolChaining<PromptRunner> {
  private constructor(private readonly state: PromptRunnerState) {}

  /** A runner on `services` with the default model and no tools. */
  static create(services: PromptRunnerServices): PromptRunner {
    return new PromptRunner(
      Object.freeze({
        services,
        llm: undefined,
        sources: [],
        references: [],
        context: ToolCallContext.EMPTY,
        systemPrompts: [],
        maxIterations: DEFAULT_MAX_ITERATIONS,
        maxRetries: undefined,
        maxToolResultChars: undefined,
        strategies: [],
        signal: undefined,
        chaining: ToolChainingConfig.NONE,
        interactionId: undefined,
        approvals: undefined,
      }),
    );
  }

  private with(changes: Partial<PromptRunnerState>): PromptRunner {
    return new PromptRunner(stateWith(this.state, changes));
  }

  private withSources(...sources: ToolSource[]): PromptRunner {
    return this.with({ sources: appendSources(this.state.sources, sources) });
  }

  /** The interaction-level context the runner passes to tools (before the process's is merged in). */
  get toolCallContext(): ToolCallContext {
    return this.state.context;
  }

  /** The maximum number of LLM rounds of one call. */
  get maxIterations(): number {
    return this.state.maxIterations;
  }

  /** Uses the model `options` select (`LlmOptions.withModel(name)`, `LlmOptions.withRole(role)`). */
  withLlm(options: LlmOptions | LlmOptionsInit): PromptRunner {
    return this.with({ llm: LlmOptions.of(options) });
  }

  /** Uses the platform's `default` role. */
  withDefaultLlm(): PromptRunner {
    return this.with({ llm: undefined });
  }

  /** Lets the platform choose the model; today this is the `default` role, as `withDefaultLlm`. */
  withAutoLlm(): PromptRunner {
    return this.with({ llm: undefined });
  }

  /** Adds one tool. */
  withTool(tool: Tool): PromptRunner {
    return this.withSources({ kind: "tool", tool });
  }

  /** Adds a list of tools (`withTools(list)` or `withTools(a, b)`), or the tool groups with these roles (`withTools("web", "math")`). */
  withTools(tools: readonly Tool[]): PromptRunner;
  withTools(...tools: Tool[]): PromptRunner;
  withTools(...toolGroupRoles: string[]): PromptRunner;
  withTools(...items: (readonly Tool[] | Tool | string)[]): PromptRunner {
    const [first] = items;
    if (first === undefined) return this;
    if (typeof first === "string") return this.withToolGroups(items as string[]);
    const tools = Array.isArray(first) ? (first as readonly Tool[]) : (items as Tool[]);
    return this.withSources(...tools.map((tool): ToolSource => ({ kind: "tool", tool })));
  }

  /** Adds several tool objects (each as {@link PromptRunner.withToolObject}). */
  withToolObjects(...objects: (object | ToolObject | null | undefined)[]): PromptRunner {
    return objects.reduce<PromptRunner>((runner, object) => runner.withToolObject(object), this);
  }

  /**
   * Adds the `@llmTool` methods of `object` (an `@unfoldingTools` class becomes
   * one facade), or a {@link ToolObject} with a naming strategy and filter.
   * `null`, `undefined` and objects without tools add nothing.
   */
  withToolObject(object: object | ToolObject | null | undefined): PromptRunner {
    if (object === null || object === undefined) return this;
    return this.withSources({ kind: "object", object: ToolObject.of(object) });
  }

  /** Adds a tool group: by role, as an instance, or as `{ role, requiredToolNames }`. Resolved at call time. */
  withToolGroup(group: ToolGroupSpec): PromptRunner {
    return this.withSources(groupSource(group));
  }

  /** Adds several tool groups. */
  withToolGroups(groups: Iterable<ToolGroupSpec>): PromptRunner {
    return this.withSources(...[...groups].map(groupSource));
  }

  /** Adds a reference: its description and notes go to the system prompt, its tools are offered as `<prefix>_<name>`. */
  withReference(reference: LlmReference): PromptRunner {
    if (this.state.references.includes(reference)) return this;
    return this.with({
      references: Object.freeze([...this.state.references, reference]),
      sources: appendSources(this.state.sources, [{ kind: "reference", reference }]),
    });
  }

  /** Adds several references. */
  withReferences(references: Iterable<LlmReference>): PromptRunner {
    let runner: PromptRunner = this;
    for (const reference of references) runner = runner.withReference(reference);
    return runner;
  }

  /**
   * Offers Agent Skills (`Skills.fromDirectory(dir)`) as one facade listing
   * them; activating a skill appends its instructions and tools to the
   * conversation, never reordering or removing what was offered.
   */
  withSkills(skills: SkillSet): PromptRunner {
    return this.withTool(skills.asTool());
  }

  /** Merges `context` into the runner's context (later entries win); it wins over the process's context. */
  withToolCallContext(context: ToolCallContextInit): PromptRunner {
    return this.with({ context: this.state.context.merge(context) });
  }

  /** Adds a system prompt (after reference contributions, before output instructions). */
  withSystemPrompt(prompt: string): PromptRunner {
    return this.with({ systemPrompts: Object.freeze([...this.state.systemPrompts, prompt]) });
  }

  /** Caps the LLM rounds of each call; reaching the cap is a limit error. @default 20 */
  withMaxIterations(maxIterations: number): PromptRunner {
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      throw new ConfigurationError(`maxIterations must be a positive integer, got ${maxIterations}.`);
    }
    return this.with({ maxIterations });
  }

  /**
   * Retries a model call that failed with a retryable error (429, 408, 409,
   * 5xx, a connection failure or reset) up to `maxRetries` times, waiting as
   * the provider's `retry-after` says (up to 60 s) or with exponential backoff
   * and jitter; 0 disables retries. Wins over `ProcessOptions.maxRetries` and
   * `AgentPlatform.create({ maxRetries })`.
   * @default 2 (the AI SDK's `generateText` default)
   */
  withMaxRetries(maxRetries: number): PromptRunner {
    checkMaxRetries("PromptRunner's", maxRetries);
    return this.with({ maxRetries });
  }

  /** The retries set with {@link PromptRunner.withMaxRetries}; `undefined`: the process's, else the platform's, else 2. */
  get maxRetries(): number | undefined {
    return this.state.maxRetries;
  }

  /**
   * Caps what one tool result sends to the model at `maxChars` characters:
   * the rest is cut with a note saying how much was cut and how to get more
   * (narrower arguments). An artifact stays whole; a tool's own
   * `metadata.maxResultChars` wins; `Infinity` sends everything.
   * @default 100000
   */
  withMaxToolResultChars(maxChars: number): PromptRunner {
    checkMaxToolResultChars("PromptRunner's", maxChars);
    return this.with({ maxToolResultChars: maxChars });
  }

  /**
   * Answers the approvals of this runner's tool calls with `callback`: it gets
   * the tool's name, the validated input and the message, and returns
   * `{ approved: true }`, `{ approved: true, input: edited }` (validated again
   * like the model's arguments) or `{ approved: false, reason }`. Without it, a
   * call that needs approval waits inside an agent process, uses the
   * platform's `onApproval` outside one, and else throws an
   * `ApprovalUnavailableError`. Wins over the process's waits.
   * @default undefined
   */
  withApproval(callback: ApprovalCallback | ApprovalAuthority): PromptRunner {
    if (typeof callback === "function") return this.with({ approvals: approvalCallbackAuthority(callback) });
    if (typeof callback !== "object" || callback === null || typeof callback.decide !== "function")
      throw new ConfigurationError("withApproval takes a function (the approval callback).");
    return this.with({ approvals: callback });
  }

  /** Adds an injection strategy, run after the default (unfolding) strategy. */
  withInjectionStrategy(strategy: ToolInjectionStrategy): PromptRunner {
    return this.with({ strategies: Object.freeze([...this.state.strategies, strategy]) });
  }

  /** Same as {@link PromptRunner.withInjectionStrategy}. */
  withToolInjectionStrategy(strategy: ToolInjectionStrategy): PromptRunner {
    return this.withInjectionStrategy(strategy);
  }

  /**
   * Offers the `@llmTool` methods of `type` (a class) from the start, as
   * placeholders that work once a tool returns a single instance of `type`
   * accepted by `predicate(instance, process)`; the last instance returned wins.
   */
  withToolChainingFrom<L extends TypeLike>(
    type: L,
    predicate?: DomainToolPredicate<TypeOf<L>>,
  ): PromptRunner {
    return this.with({ chaining: this.state.chaining.from(type, predicate) });
  }

  /** Adds a whole tool-chaining configuration (what an agentic tool passes to its nested runner). */
  withToolChaining(config: ToolChainingConfig): PromptRunner {
    return this.with({ chaining: this.state.chaining.merge(config) });
  }

  /** Any object a tool returns that has `@llmTool` methods becomes tools on the next LLM call (replacing the previous object's). */
  withToolChainingFromAny(): PromptRunner {
    return this.with({ chaining: this.state.chaining.withAny() });
  }

  /** Aborts every call of this runner when `signal` aborts. */
  withSignal(signal: AbortSignal): PromptRunner {
    return this.with({ signal });
  }

  /**
   * Names the interaction: its LLM calls' events (`llm-call-start`,
   * `llm-call-end`), and so its trace records, carry `interactionId`. Agentic
   * tools name their nested loops `simple-agentic-tool-<name>`,
   * `playbook-tool-<name>` and `state-machine-tool-<name>`.
   */
  withInteractionId(interactionId: string): PromptRunner {
    if (typeof interactionId !== "string" || interactionId.trim() === "") {
      throw new ConfigurationError(
        `An interaction id must be a non-empty string, got ${JSON.stringify(interactionId)}.`,
      );
    }
    return this.with({ interactionId });
  }

  /** The interaction's name set with {@link PromptRunner.withInteractionId}, if any. */
  get interactionId(): string | undefined {
    return this.state.interactionId;
  }

  /** The model's text answer to `prompt`, after any tool calls. */
  async generateText(prompt: string, options: PromptCallOptions = {}): Promise<string> {
    const result = await runInteraction(this.state, {
      messages: [userMessage(prompt)],
      signal: options.signal,
    });
    return result.text;
  }

  /**
   * The model's answer to `prompt` with how it was reached: `{ text, steps,
   * toolCalls, usage, costUsd }`, as an AI SDK `generateText` result reads
   * (`generateText` returns the same `text` alone). Runs the same tool loop.
   */
  async generate(prompt: string, options: PromptCallOptions = {}): Promise<GenerateResult> {
    const collector = new GenerateResultCollector();
    const result = await runInteraction(this.state, {
      messages: [userMessage(prompt)],
      signal: options.signal,
      collect: { types: GenerateResultCollector.EVENT_TYPES, onEvent: collector.onEvent },
    });
    return collector.result(result.text, result.usage);
  }

  /**
   * The answer to `prompt`, streamed: iterate the result (or its `textStream`)
   * for text deltas; `text` resolves to the whole answer. Tool rounds run as
   * in `generateText`; a streamed round's text may precede its tool calls.
   */
  streamText(prompt: string, options: PromptCallOptions = {}): TextStream {
    return textStream(async (onTextDelta) => {
      const result = await runInteraction(this.state, {
        messages: [userMessage(prompt)],
        signal: options.signal,
        onTextDelta,
      });
      return result.text;
    });
  }

  /** The next assistant message of a conversation; an empty conversation is a {@link ConfigurationError}. */
  async respond(messages: readonly Message[], options: PromptCallOptions = {}): Promise<AssistantMessage> {
    if (messages.length === 0) {
      throw new ConfigurationError("PromptRunner.respond needs at least one message; got an empty list.");
    }
    const result = await runInteraction(this.state, {
      messages: messages.map(toModelMessage),
      signal: options.signal,
    });
    return Object.freeze({ role: "assistant", content: result.text });
  }

  /**
   * An object of `type` (a zod schema, a `domainType`, a class) for `prompt`;
   * `String` asks for plain text, as `generateText`.
   * An invalid answer gets one corrective retry naming what was wrong; a second
   * invalid answer is a {@link StructuredOutputError} carrying the raw text.
   */
  async createObject<L extends TypeLike>(
    prompt: string,
    type: L,
    options: PromptCallOptions = {},
  ): Promise<TypeOf<L>> {
    if ((type as unknown) === String) return (await this.generateText(prompt, options)) as TypeOf<L>;
    const token = TypeToken.of(type) as TypeToken<TypeOf<L>>;
    const request = {
      outputInstructions: outputInstructions(token),
      responseFormat: { type: "json" as const, schema: token.jsonSchema as JSONSchema7, name: token.name },
      signal: options.signal,
      // One chaining session for the answer and its retry, so the retry keeps the bindings made before it.
      chaining: this.state.chaining.isEmpty ? undefined : this.state.chaining.start(),
    };
    const first = await runInteraction(this.state, { ...request, messages: [userMessage(prompt)] });
    const parsed = parseOutput(first.text, token);
    if (parsed.ok) return parsed.value;
    if (first.returnedDirect) throw new StructuredOutputError(token.name, first.text, parsed.problems, 1);
    const retry = await runInteraction(this.state, {
      ...request,
      loopId: first.loopId,
      messages: [
        ...withoutSystem(first.prompt),
        ...(endsWithAnswer(first.prompt, first.text)
          ? []
          : [{ role: "assistant" as const, content: [{ type: "text" as const, text: first.text }] }]),
        userMessage(correctionMessage(token, parsed.problems)),
      ],
    });
    const reparsed = parseOutput(retry.text, token);
    if (reparsed.ok) return reparsed.value;
    throw new StructuredOutputError(token.name, retry.text, reparsed.problems, 2);
  }

  /** A creator of objects of `type`: `runner.creating(schema).fromPrompt(prompt)`. */
  creating<L extends TypeLike>(type: L): ObjectCreator<TypeOf<L>> {
    return { fromPrompt: (prompt, options) => this.createObject(prompt, type, options) };
  }
}

function withoutSystem(prompt: readonly LanguageModelV3Message[]): LanguageModelV3Message[] {
  return prompt.filter((message) => message.role !== "system");
}

function endsWithAnswer(prompt: readonly LanguageModelV3Message[], text: string): boolean {
  const last = prompt[prompt.length - 1];
  if (last?.role !== "assistant") return false;
  return last.content.some((part) => part.type === "text" && part.text === text);
}
