import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { MaxIterationsExceededError } from "../../src/errors/max-iterations-exceeded-error.js";
import { ToolNotFoundError } from "../../src/errors/tool-not-found-error.js";
import { emptyReplyNudge } from "../../src/loop/loop-messages.js";
import type { ToolLoopEvent } from "../../src/loop/tool-loop.js";
import { ToolCallContext } from "../../src/tool/tool-call-context.js";
import type { FuzzModel } from "./fuzz-model.js";
import { FUZZ_TOOLS, type FuzzWorld } from "./fuzz-tools.js";

// The properties every fuzz case must keep, whatever the model sent.

/** How a run ended: an answer (with its transcript when the caller sees it), or the error it threw. */
export type RunEnding =
  | { readonly kind: "answer"; readonly transcript?: LanguageModelV3Prompt }
  | { readonly kind: "error"; readonly error: unknown };

/** What a check needs to know about one case. */
export interface FuzzCase {
  readonly model: FuzzModel;
  readonly world: FuzzWorld;
  /** Messages before the loop started. */
  readonly promptLength: number;
  readonly maxIterations: number;
  readonly events: readonly ToolLoopEvent[];
  /** Errors the caller documents on top of the loop's own (a spent budget, for a process). */
  readonly isDocumentedError?: (error: unknown) => boolean;
}

/** The longest in-band answer (an error the loop sends back to the model) allowed. */
const MAX_ANSWER_LENGTH = 2_000;

class PropertyViolation extends Error {
  override name = "PropertyViolation";
}

function violated(message: string): never {
  throw new PropertyViolation(message);
}

/**
 * Checks one case: only documented errors escape; every call the loop had to
 * execute got exactly one result, in order; unknown names are answered in-band;
 * no artifact is lost; the ToolCallContext never reaches the model; the
 * iteration limit holds; the tools saw their context and signal.
 */
export function checkRun(fuzzCase: FuzzCase, ending: RunEnding): void {
  const { model, world, maxIterations } = fuzzCase;
  if (world.problems.length > 0) violated(`tools noticed: ${world.problems.join("; ")}`);
  if (model.requests.length > maxIterations)
    violated(`${model.requests.length} LLM calls with maxIterations ${maxIterations}`);
  checkPromptsGrow(fuzzCase);
  checkNothingLeaked(fuzzCase);
  checkArtifacts(fuzzCase);

  let transcript: LanguageModelV3Prompt | undefined;
  let complete = false;
  if (ending.kind === "answer") {
    transcript = ending.transcript;
    complete = transcript !== undefined;
  } else {
    const { error } = ending;
    if (MaxIterationsExceededError.isInstance(error)) {
      if (model.requests.length !== maxIterations)
        violated(`MaxIterationsExceededError after ${model.requests.length} of ${maxIterations} calls`);
      transcript = error.transcript;
      complete = true;
    } else if (ToolNotFoundError.isInstance(error)) {
      if (error.availableTools.includes(error.requestedTool))
        violated(`ToolNotFoundError for '${error.requestedTool}', which was offered`);
    } else if (world.abort.signal.aborted && error === world.abort.signal.reason) {
      if (!world.ran.includes("hang")) violated("the run was aborted but no tool hung");
    } else if (!fuzzCase.isDocumentedError?.(error)) {
      violated(`undocumented error escaped: ${describe(error)}`);
    }
  }
  // Without the final transcript, the last request shows every round but the last.
  transcript ??= model.requests.at(-1)?.prompt;
  if (transcript) checkCallsAnswered(fuzzCase, transcript, complete);
}

/** Each request's prompt starts with the previous request's messages, unchanged. */
function checkPromptsGrow({ model }: FuzzCase): void {
  for (let index = 1; index < model.requests.length; index += 1) {
    const before = (model.requests[index - 1] as (typeof model.requests)[number]).prompt;
    const after = (model.requests[index] as (typeof model.requests)[number]).prompt;
    if (after.length < before.length || before.some((message, at) => after[at] !== message))
      violated(`request ${index} does not extend the prompt of request ${index - 1}`);
  }
}

/** Neither the context's values, nor the loop id, nor a ToolCallContext object were sent. */
function checkNothingLeaked({ model, world, events }: FuzzCase): void {
  const loopIds = new Set(events.map((event) => event.loopId));
  model.requests.forEach((request, index) => {
    if (request.wire.includes(world.secret)) violated(`request ${index} carries the context's secret`);
    for (const loopId of loopIds)
      if (request.wire.includes(loopId)) violated(`request ${index} carries the loop id`);
    if (containsContext(request.prompt)) violated(`request ${index} carries a ToolCallContext`);
  });
}

function containsContext(root: unknown): boolean {
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    if (value instanceof ToolCallContext) return true;
    seen.add(value);
    for (const child of Object.values(value)) stack.push(child);
  }
  return false;
}

/** Every artifact produced reached the sink, once, in order, and its tool-call-end event. */
function checkArtifacts({ world, events }: FuzzCase): void {
  const sunk = world.sink.items();
  if (sunk.length !== world.produced.length || sunk.some((report, index) => report !== world.produced[index]))
    violated(
      `${world.produced.length} artifacts produced, the sink holds ${sunk.length} (or in another order)`,
    );
  const reported = new Set<unknown>();
  for (const event of events)
    if (event.type === "tool-call-end" && event.result.kind === "artifact")
      reported.add(event.result.artifact);
  for (const report of world.produced)
    if (!reported.has(report)) violated(`artifact ${report.serial} missing from the tool-call-end events`);
}

type AssistantPart = Extract<LanguageModelV3Message, { role: "assistant" }>["content"][number];

/**
 * Walks the transcript: the k-th assistant message holds reply k's calls (the
 * ones the loop executes) in order, and the message after it answers each of
 * them exactly once, in the same order. `complete` says the transcript ends
 * after a whole round (an answer or the iteration limit), so it must hold one
 * assistant message per LLM call.
 */
function checkCallsAnswered(fuzzCase: FuzzCase, transcript: LanguageModelV3Prompt, complete: boolean): void {
  const { model, promptLength } = fuzzCase;
  let round = 0;
  for (let index = promptLength; index < transcript.length; index += 1) {
    const message = transcript[index] as LanguageModelV3Message;
    const expected = model.replyAt(round).parts.flatMap((part) => (part.type === "call" ? [part] : []));
    if (isNudge(message)) {
      // An empty reply with nothing to keep: the loop only nudged the model.
      if (expected.length > 0)
        violated(`round ${round}: a nudge where the model made ${expected.length} calls`);
      round += 1;
      continue;
    }
    if (message.role !== "assistant")
      violated(`message ${index} is a ${message.role} message, expected assistant`);
    const sent = (message.content as readonly AssistantPart[]).filter(
      (part) => part.type === "tool-call" && !part.providerExecuted,
    ) as Extract<AssistantPart, { type: "tool-call" }>[];
    if (!sameCalls(expected, sent))
      violated(
        `round ${round}: the transcript holds calls ${names(sent)}, the model made ${names(expected)}`,
      );
    if (expected.length > 0) {
      const answer = transcript[index + 1];
      if (answer?.role !== "tool")
        violated(`round ${round}: ${expected.length} calls and no tool message after them`);
      const results = answer.content.filter((part) => part.type === "tool-result");
      if (!sameCalls(expected, results))
        violated(`round ${round}: results for ${names(results)}, the model called ${names(expected)}`);
      results.forEach((result, at) => {
        const { output } = result;
        if ((output.type !== "text" && output.type !== "error-text") || typeof output.value !== "string")
          violated(`round ${round}: result ${at} has output ${output.type}`);
        checkUnknownAnswered(fuzzCase, round, expected[at]?.name ?? "", output);
        checkToolAnswered(fuzzCase, round, expected[at]?.name ?? "", output);
        // An in-band answer is short, however large the arguments it answers were.
        if (output.type === "error-text" && output.value.length > MAX_ANSWER_LENGTH)
          violated(`round ${round}: an in-band answer of ${output.value.length} characters`);
      });
      index += 1;
    } else if (isNudge(transcript[index + 1])) {
      index += 1; // the nudge after an empty reply belongs to its round
    }
    round += 1;
  }
  const expectedRounds = complete ? model.requests.length : Math.max(0, model.requests.length - 1);
  if (round !== expectedRounds)
    violated(`the transcript holds ${round} rounds for ${model.requests.length} LLM calls`);
}

/** A call of a name the loop never offered (in a request or added mid-round) is answered with the unknown-tool text. */
function checkUnknownAnswered(
  { model, events }: FuzzCase,
  round: number,
  name: string,
  output: { readonly type: string; readonly value?: unknown },
): void {
  if (model.requests.some((request) => request.toolNames.includes(name))) return;
  if (events.some((event) => event.type === "tools-changed" && event.added.includes(name))) return;
  if (output.type !== "error-text" || !String(output.value).startsWith(`Tool '${name}' does not exist.`))
    violated(
      `round ${round}: the unknown tool '${name}' was answered ${JSON.stringify(output).slice(0, 200)}`,
    );
}

/** A call of an offered tool whose spec checks its answers (a dead MCP server, an unbound placeholder) got a right one. */
function checkToolAnswered(
  { model }: FuzzCase,
  round: number,
  name: string,
  output: { readonly type: string; readonly value?: unknown },
): void {
  const spec = FUZZ_TOOLS.find((candidate) => candidate.name === name);
  if (!spec?.checkAnswer || !model.requests.some((request) => request.toolNames.includes(name))) return;
  const problem = spec.checkAnswer(output);
  if (problem) violated(`round ${round}: ${name}: ${problem}: ${JSON.stringify(output).slice(0, 200)}`);
}

const NUDGE = JSON.stringify(emptyReplyNudge());

/** The loop's one nudge after an empty reply. */
function isNudge(message: LanguageModelV3Message | undefined): boolean {
  return message?.role === "user" && JSON.stringify(message) === NUDGE;
}

function sameCalls(
  expected: readonly { readonly id: string; readonly name: string }[],
  actual: readonly { readonly toolCallId: string; readonly toolName: string }[],
): boolean {
  return (
    expected.length === actual.length &&
    expected.every(
      (call, index) => call.id === actual[index]?.toolCallId && call.name === actual[index]?.toolName,
    )
  );
}

function names(calls: readonly ({ readonly name: string } | { readonly toolName: string })[]): string {
  return JSON.stringify(calls.map((call) => ("name" in call ? call.name : call.toolName)));
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 300)}\n${error.stack ?? ""}`;
  return String(error);
}
