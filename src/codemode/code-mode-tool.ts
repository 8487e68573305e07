import { AwaitingResponse, type PendingRequest } from "../errors/awaiting-response.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolControlFlowSignal } from "../errors/tool-control-flow-signal.js";
import { currentToolCallId, endSpan, startToolSpan, withinToolCall } from "../loop/loop-telemetry.js";
import { gateToolCall } from "../loop/tool-gate.js";
import { AgentProcess } from "../platform/agent-process.js";
import { AbstractTool } from "../tool/abstract-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { isNestedTool } from "../tool/unfolding.js";
import { type CodeModeOptions, type CodeModeSettings, codeModeSettings } from "./code-mode-options.js";
import { CodeModeSearchTool } from "./code-mode-search-tool.js";
import { type InnerCallEvents, innerCallEvents } from "./inner-call-events.js";
import { isProgramJournal, type JournalOutcome, type ProgramJournal } from "./program-journal.js";
import { type HostAnswer, runProgram } from "./run-program.js";
import { toolsDeclaration } from "./tool-declarations.js";

/** How the model is told to write a program (the declarations follow). */
function instructions(settings: CodeModeSettings): string {
  return [
    "Write JavaScript that calls tools and computes the answer; only what it returns (and console.log lines) comes back.",
    "`code` is the body of an async function: call tools as `const x = await tools.name({ ... })` (each returns the tool's result parsed as JSON when it is JSON, else its text; a failed call throws), use Promise.all for independent calls, and `return` a small result.",
    `Plain JavaScript only: no imports, TypeScript types, network, timers or file system. Limits: ${settings.maxToolCalls} tool calls, ${settings.timeoutMs} ms, ${settings.maxOutputChars} characters of output.`,
  ].join(" ");
}

const CODE_SCHEMA = InputSchema.fromJsonSchema({
  type: "object",
  properties: {
    code: {
      type: "string",
      description: "The body of an async JavaScript function that calls `tools` and returns the result.",
    },
  },
  required: ["code"],
  additionalProperties: false,
});

/** The tools a program may call: the given ones, with facades (and unfolded groups) opened to their inner tools. */
export function callableTools(tools: readonly Tool[]): Map<string, Tool> {
  const byName = new Map<string, Tool>();
  const add = (tool: Tool) => {
    if (isNestedTool(tool)) {
      for (const inner of tool.innerTools) add(inner);
      return;
    }
    const name = tool.definition.name;
    const seen = byName.get(name);
    if (seen !== undefined && seen !== tool)
      throw new ConfigurationError(
        `Code mode: two tools are named '${name}'; rename one (tool.withName(...)).`,
      );
    byName.set(name, tool);
  };
  for (const tool of tools) add(tool);
  return byName;
}

/**
 * A tool whose one parameter is a program: the model writes JavaScript that
 * calls the inner tools as `await tools.name({...})`, it runs in a QuickJS
 * sandbox with its own memory and limits, and only the program's result goes
 * back to the model. Every inner call passes the same gate as a direct call
 * (validation, approval, context); an approval-gated inner call makes the
 * process wait, and the resumed program replays the calls that had settled
 * from a journal kept in the process's waits, so no tool runs twice.
 */
export class CodeModeTool extends AbstractTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  /** The tools a program may call, by name. */
  readonly callable: ReadonlyMap<string, Tool>;
  readonly settings: CodeModeSettings;

  private constructor(
    name: string,
    description: string,
    callable: Map<string, Tool>,
    settings: CodeModeSettings,
    declarations: boolean,
  ) {
    super();
    this.callable = callable;
    this.settings = settings;
    const parts = [description.trim(), instructions(settings)];
    if (declarations) parts.push(`The tools:\n${toolsDeclaration([...callable.values()])}`);
    this.definition = toolDefinition(name, parts.filter((part) => part !== "").join("\n"), CODE_SCHEMA);
  }

  /**
   * A code-mode tool over `tools` (facades and unfolded groups are opened to
   * their inner tools), whose description declares each one in TypeScript.
   */
  static of(
    name: string,
    description: string,
    tools: readonly Tool[],
    options?: CodeModeOptions,
  ): CodeModeTool {
    return new CodeModeTool(name, description, callableTools(tools), codeModeSettings(name, options), true);
  }

  /**
   * A catalogue pair for thousands of tools: `<name>_search` finds tools by
   * what they do and answers with their declarations, and `<name>` runs code
   * that may call any tool of the catalogue (none is declared up front).
   */
  static searchable(
    name: string,
    description: string,
    tools: readonly Tool[],
    options?: CodeModeOptions,
  ): readonly [CodeModeSearchTool, CodeModeTool] {
    const callable = callableTools(tools);
    const searchName = `${name}_search`;
    const code = new CodeModeTool(
      name,
      `${description.trim()} Find the tools to call with ${searchName} first.`.trim(),
      callable,
      codeModeSettings(name, options),
      false,
    );
    return [new CodeModeSearchTool(searchName, name, [...callable.values()]), code];
  }

  async call(input: string, context?: ToolCallContext, options?: ToolCallOptions): Promise<ToolResult> {
    const code = codeOf(input);
    if (code === undefined)
      return ToolResult.error(`Call ${this.definition.name} with {"code": "<JavaScript>"}.`);
    if (code.length > this.settings.maxCodeChars)
      return ToolResult.error(
        `The code is ${code.length} characters, over the limit of ${this.settings.maxCodeChars}. Write a shorter program.`,
      );
    const callKey =
      options?.callKey ?? `code-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const given = context ?? ToolCallContext.EMPTY;
    const process = AgentProcess.current();
    const waits = process?.waitsForAwaitables();
    // Inner calls are tool calls of their own loop (the code call's key), linked to the code call: the trees nest them under it.
    const events = innerCallEvents(process, currentToolCallId(), callKey);
    // Found by the call's key, not by a slot: a program claims a slot only when it stops to wait, so
    // one that completes leaves the numbering of the action's loops and awaitables as it was.
    const kept = waits?.state().journal.find((entry) => entry?.kind === "program" && entry.key === callKey);
    const journal: ProgramJournal | undefined =
      kept?.kind === "program" && isProgramJournal(kept.journal) ? kept.journal : undefined;
    const outcome = await runProgram<readonly PendingRequest[]>({
      source: code,
      toolNames: [...this.callable.keys()],
      limits: this.settings,
      ...(journal !== undefined ? { journal } : {}),
      ...(options?.signal !== undefined ? { signal: options.signal } : {}),
      call: (index, toolName, args, signal) =>
        events === undefined
          ? this.callInner(index, toolName, args, { callKey, context: given, options, signal })
          : this.reportedCall(events, index, toolName, args, { callKey, context: given, options, signal }),
    });
    if (outcome.kind === "done") return ToolResult.text(outcome.output);
    if (outcome.kind === "failed") return ToolResult.error(outcome.message);
    const requests = outcome.pending.flat();
    if (waits === undefined)
      return ToolResult.error(
        `The program needs a person's approval (${requests.map((request) => ("toolName" in request ? request.toolName : request.key)).join(", ")}), and nobody can be asked here. Do the work without those tools.`,
      );
    waits.record(waits.enter().index, { kind: "program", key: callKey, journal: outcome.journal });
    throw new AwaitingResponse(requests);
  }

  /** {@link CodeModeTool.callInner} between its `tool-call-start` and `tool-call-end` events. */
  private async reportedCall(
    events: InnerCallEvents,
    index: number,
    toolName: string,
    args: string,
    scope: InnerCallScope,
  ): Promise<HostAnswer<readonly PendingRequest[]>> {
    const toolCallId = `${scope.callKey}/${index}`;
    events.start(toolCallId, toolName, args);
    const started = performance.now();
    const answer = await this.callInner(index, toolName, args, scope);
    const result =
      "pending" in answer
        ? ToolResult.error("This call is waiting for a person's approval.")
        : answer.ok
          ? ToolResult.text(answer.text)
          : ToolResult.error(answer.message);
    events.end(toolCallId, toolName, args, result, performance.now() - started);
    return answer;
  }

  /** One inner call through the gate: unknown names and refusals are answered to the program, approvals may wait. */
  private async callInner(
    index: number,
    toolName: string,
    args: string,
    scope: InnerCallScope,
  ): Promise<HostAnswer<readonly PendingRequest[]>> {
    const tool = this.callable.get(toolName);
    if (tool === undefined)
      return {
        ok: false,
        message: `There is no tool '${toolName}'. Call one of: ${[...this.callable.keys()].join(", ")}.`,
      };
    const innerKey = `${scope.callKey}/${index}`;
    const span = startToolSpan(scope.context.loopId() ?? scope.callKey, toolName, innerKey, undefined);
    try {
      const outcome = await withinToolCall(innerKey, span, () =>
        gateToolCall(
          { tool, toolName, input: args, callKey: innerKey },
          {
            context: scope.context,
            ...(scope.options !== undefined ? { callOptions: scope.options } : {}),
            signal: scope.signal,
          },
        ),
      );
      if (outcome.kind === "pending") {
        endSpan(span, undefined);
        return { pending: [outcome.request] };
      }
      const answer: JournalOutcome =
        outcome.kind === "refused"
          ? { ok: false, message: outcome.message }
          : outcome.result.kind === "error"
            ? { ok: false, message: outcome.result.content }
            : { ok: true, text: outcome.result.content };
      endSpan(span, answer.ok ? undefined : answer.message);
      return answer;
    } catch (error) {
      endSpan(span, error);
      if (AwaitingResponse.isInstance(error)) return { pending: error.requests };
      if (ToolControlFlowSignal.isInstance(error))
        return { ok: false, message: `Tool '${toolName}' cannot be called from code (${error.name}).` };
      const message = error instanceof Error ? error.message || error.name : String(error);
      return { ok: false, message: `Tool '${toolName}' failed: ${message}` };
    }
  }
}

/** What every inner call of one program shares. */
interface InnerCallScope {
  readonly callKey: string;
  readonly context: ToolCallContext;
  readonly options: ToolCallOptions | undefined;
  readonly signal: AbortSignal;
}

/** The `code` of the arguments, or `undefined` when they are not `{"code": string}`. */
function codeOf(input: string): string | undefined {
  try {
    const value = JSON.parse(input) as unknown;
    if (typeof value !== "object" || value === null) return undefined;
    const code = (value as { code?: unknown }).code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}
