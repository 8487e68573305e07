import type { LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import type { Context } from "@opentelemetry/api";
import { ReplanRequested } from "../errors/replan-requested.js";
import { ToolControlFlowSignal } from "../errors/tool-control-flow-signal.js";
import type { ApprovalAuthority } from "../tool/approval-authority.js";
import { ApprovalGrant } from "../tool/approval-grant.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolContent } from "../tool/tool-content.js";
import { ToolResult } from "../tool/tool-result.js";
import { ToolResultNote } from "../tool/tool-result-note.js";
import { nestedTooDeeply } from "./argument-depth.js";
import {
  type BatchDeadline,
  callWithTimeout,
  TOOL_TIMED_OUT,
  toolTimeoutMessage,
} from "./call-with-timeout.js";
import { capToolResult } from "./cap-tool-result.js";
import { emit, endSpan, type LoopEventListener, startToolSpan, withinToolCall } from "./loop-telemetry.js";
import { type ParsedToolArguments, parseToolArguments } from "./parse-tool-arguments.js";
import type { GateAdmission } from "./tool-gate.js";
import type { ToolSet } from "./tool-set.js";
import type { UnknownToolCounter } from "./unknown-tool.js";

/** A tool call as the model produced it. */
export interface ModelToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The raw JSON text of the arguments. */
  readonly input: string;
}

/** What one tool call came to. */
export interface ToolCallOutcome {
  readonly call: ModelToolCall;
  /** The tool that ran; absent when the call was answered in-band without running anything. */
  readonly tool?: Tool;
  /** The JSON arguments the tool was called with; absent when it did not run. */
  readonly input?: string;
  /** The parsed arguments (the raw text when they are not JSON), for the transcript. */
  readonly value: unknown;
  /** True when the tool threw or timed out (the result is the `WARNING: ...` text, or the error `Tool execution timed out`). */
  readonly failed?: boolean;
  /** The result the model is told about. */
  readonly result: ToolResult;
  /** The tool-result output sent back to the model. */
  readonly output: LanguageModelV3ToolResultOutput;
  /** Set when the tool asked for a replan. */
  readonly replan?: ReplanRequested;
}

/** What a loop shares with each of its tool calls. */
export interface ToolCallEnvironment {
  readonly tools: ToolSet;
  readonly unknownTools: UnknownToolCounter;
  readonly context: ToolCallContext;
  readonly callOptions: ToolCallOptions;
  readonly loopId: string;
  readonly signal?: AbortSignal;
  /** Receives `tool-call-start` events (absent: nobody does, and they are not built). */
  readonly onToolCallStart?: LoopEventListener;
  /** Receives `tool-call-end` events (absent: nobody does, and they are not built). */
  readonly onToolCallEnd?: LoopEventListener;
  /** Time limit of calls whose tool's metadata sets none. */
  readonly toolTimeoutMs?: number;
  /** The parallel round's overall limit: a call still running when `reached` settles is answered as timed out. */
  readonly batchDeadline?: BatchDeadline;
  /** The most characters of a result sent to the model for tools whose metadata sets none (`Infinity`: no cap). */
  readonly maxToolResultChars: number;
  /** The OpenTelemetry context of the LLM call that asked for the tool calls (set only while a span records). */
  readonly spanParent?: Context;
  /** Who answers approvals (the process's waits, or an approval callback); absent: nobody can be asked. */
  readonly approvals?: ApprovalAuthority;
}

/**
 * What the model is told: the content, or `Error: <message>` for an error
 * result (the reference loop's wording); a result's note follows as a second
 * text part.
 */
function outputOf(result: ToolResult): LanguageModelV3ToolResultOutput {
  if (result.kind === "error") return { type: "error-text", value: `Error: ${result.content}` };
  const note = ToolResultNote.of(result);
  // Stryker disable next-line ConditionalExpression: a text result has no artifact, and ToolContent.of(undefined) is []
  const media = result.kind === "artifact" ? mediaParts(result.artifact) : [];
  if (note === undefined && media.length === 0) return { type: "text", value: result.content };
  return {
    type: "content",
    value: [
      { type: "text", text: result.content },
      ...media,
      ...(note === undefined ? [] : [{ type: "text" as const, text: note }]),
    ],
  };
}

/** The images and audio of a {@link ToolContent} artifact, as file parts the model sees. */
function mediaParts(artifact: unknown): { type: "file-data"; data: string; mediaType: string }[] {
  return ToolContent.of(artifact).flatMap((content) =>
    content.type === "resource"
      ? []
      : [{ type: "file-data" as const, data: content.data, mediaType: content.mimeType }],
  );
}

function answered(call: ModelToolCall, message: string, value: unknown): ToolCallOutcome {
  return { call, value, result: ToolResult.error(message), output: { type: "error-text", value: message } };
}

/** The arguments of a call answered without running a tool, for the transcript: parsed when they are JSON a provider can send back. */
function lenientParse(input: string): unknown {
  if (nestedTooDeeply(input)) return input;
  try {
    return JSON.parse(input.trim() === "" ? "{}" : input);
  } catch {
    return input;
  }
}

/**
 * Runs one tool call through the gate: finds the tool (unknown names are
 * answered in-band, and counted), checks the arguments (malformed JSON and
 * schema violations are answered in-band), calls the tool with the loop
 * context and signal, and turns a thrown error into the `WARNING: ...` answer.
 * A replan request is returned; other control-flow signals and aborts
 * propagate. A call of a tool needing approval comes with the gate's
 * `admission` (decided for the whole round first): refused in-band, or run
 * with exactly the approved (or edited) arguments under the gate's grant.
 */
export async function executeToolCall(
  model: ModelToolCall,
  environment: ToolCallEnvironment,
  callKey: string,
  admission?: GateAdmission,
): Promise<ToolCallOutcome> {
  const call = admission?.kind === "run" && admission.edited ? edited(model, admission.input) : model;
  const { tools, onToolCallEnd: onEvent, loopId } = environment;
  const onStart = environment.onToolCallStart;
  // Stryker disable next-line ConditionalExpression: true only calls an absent listener, and emit swallows the TypeError
  if (onStart !== undefined) {
    emit(onStart, {
      type: "tool-call-start",
      loopId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
    });
  }
  const tool = tools.get(call.toolName);
  if (!tool) {
    const outcome = answered(
      call,
      environment.unknownTools.missed(call.toolName, tools.toolNames),
      lenientParse(call.input),
    );
    // Stryker disable next-line ConditionalExpression: true only calls an absent listener, and emit swallows the TypeError
    if (onEvent !== undefined) emitEnd(onEvent, loopId, outcome, 0);
    return outcome;
  }
  environment.unknownTools.found();
  // The gate's first step for every tool (parse and validate); a tool needing approval was admitted by the whole gate already.
  const parsed: GateAdmission = admission ?? admitted(parseToolArguments(tool, call.input));
  if (parsed.kind !== "run") {
    const refused = parsed.kind === "refused";
    const message = refused ? parsed.message : "This call is waiting for a person's approval.";
    const outcome = answered(call, message, refused ? parsed.value : lenientParse(call.input));
    // Stryker disable next-line ConditionalExpression: true only calls an absent listener, and emit swallows the TypeError
    if (onEvent !== undefined) emitEnd(onEvent, loopId, outcome, 0);
    return outcome;
  }
  const value = parsed.value;
  // Timed only for a listener: the duration is in the tool-call-end event and nowhere else.
  // Stryker disable next-line ConditionalExpression: false only times a call nobody is told about
  const started = onEvent === undefined ? 0 : performance.now();
  const span = startToolSpan(loopId, call.toolName, call.toolCallId, environment.spanParent);
  let outcome: ToolCallOutcome;
  const timeoutMs = tool.metadata.toolTimeoutMs ?? environment.toolTimeoutMs;
  // A returnDirect tool's result is the answer, not sent back to the model: never cut.
  const maxChars = tool.metadata.returnDirect
    ? Number.POSITIVE_INFINITY
    : (tool.metadata.maxResultChars ?? environment.maxToolResultChars);
  const callOptions: ToolCallOptions = { ...environment.callOptions, callKey };
  const approval = parsed.approval;
  const deadline = environment.batchDeadline;
  const run = () =>
    timeoutMs === undefined && deadline === undefined
      ? tool.call(parsed.input, environment.context, callOptions)
      : callWithTimeout(tool, parsed.input, environment.context, callOptions, timeoutMs, deadline);
  try {
    const result = await withinToolCall(
      call.toolCallId,
      span,
      () => (approval === undefined ? run() : ApprovalGrant.run(approval, parsed.input, run)),
      callKey,
    );
    if ("timedOutAfterMs" in result) {
      // The model sees the reference's pinned `Error: Tool execution timed out`; the span names the limit.
      const timedOut = ToolResult.error(TOOL_TIMED_OUT);
      outcome = {
        call,
        tool,
        input: parsed.input,
        value,
        result: timedOut,
        output: outputOf(timedOut),
        failed: true,
      };
      endSpan(span, toolTimeoutMessage(call.toolName, result.timedOutAfterMs));
    } else {
      const shown =
        result.content.length > maxChars ? capToolResult(result, maxChars, call.toolName) : result;
      outcome = { call, tool, input: parsed.input, value, result: shown, output: outputOf(shown) };
      endSpan(span, result.kind === "error" ? result.content : undefined);
    }
  } catch (error) {
    endSpan(span, error);
    if (ReplanRequested.isInstance(error)) {
      outcome = {
        call,
        tool,
        input: parsed.input,
        value,
        result: ToolResult.text(""),
        // Stryker disable next-line ObjectLiteral,StringLiteral: a replan's output is never sent, the loop ends
        output: { type: "text", value: "" },
        replan: error,
      };
    } else if (ToolControlFlowSignal.isInstance(error)) {
      throw error;
    } else if (environment.signal?.aborted) {
      throw environment.signal.reason;
    } else {
      const message = failureMessage(error);
      const warning = ToolResult.text(`WARNING: Tool '${call.toolName}' failed with exception: ${message}`);
      const result =
        warning.content.length > maxChars ? capToolResult(warning, maxChars, call.toolName) : warning;
      outcome = { call, tool, input: parsed.input, value, result, output: outputOf(result), failed: true };
    }
  }
  // Stryker disable next-line ConditionalExpression: true only calls an absent listener, and emit swallows the TypeError
  if (onEvent !== undefined) emitEnd(onEvent, loopId, outcome, performance.now() - started);
  return outcome;
}

/** Parsed arguments as the gate's admission of a call of a tool that needs no approval. */
function admitted(parsed: ParsedToolArguments): GateAdmission {
  return parsed.ok
    ? { kind: "run", input: parsed.input, value: parsed.value }
    : { kind: "refused", message: parsed.message, value: parsed.value };
}

/** `call` with the arguments a person edited (validated JSON). */
function edited(call: ModelToolCall, input: string): ModelToolCall {
  return { toolCallId: call.toolCallId, toolName: call.toolName, input };
}

/** The message of a thrown value: an error's message, a thrown string itself, else "No message". */
function failureMessage(error: unknown): string {
  if (error instanceof Error) return error.message || "No message";
  return typeof error === "string" && error.length > 0 ? error : "No message";
}

function emitEnd(
  onEvent: LoopEventListener,
  loopId: string,
  outcome: ToolCallOutcome,
  durationMs: number,
): void {
  emit(onEvent, {
    type: "tool-call-end",
    loopId,
    toolCallId: outcome.call.toolCallId,
    toolName: outcome.call.toolName,
    input: outcome.call.input,
    result: outcome.result,
    durationMs,
  });
}
