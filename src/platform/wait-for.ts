import type { z } from "zod";
import { AwaitingResponse, type PendingRequest } from "../errors/awaiting-response.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { EmbabelError } from "../errors/embabel-error.js";
import { AnswerChecks } from "../loop/answer-checks.js";
import { zodToJsonSchema } from "../tool/input-schema.js";
import { jsonSafe } from "../tool/json-safe.js";
import { describeZodIssues } from "../tool/type-token.js";
import { AgentProcess } from "./agent-process.js";
import type { ConfirmationResponse } from "./awaitable.js";
import type { ProcessWaits } from "./process-waits.js";

/** Options of the {@link WaitFor} awaitables. */
export interface WaitForOptions {
  /** Unanswered this long, a confirmation is denied with reason "timed out" and a form rejects. @default undefined (waits for ever) */
  readonly timeoutMs?: number;
}

function waitsOf(what: string): ProcessWaits {
  const waits = AgentProcess.current()?.waitsForAwaitables();
  if (waits === undefined) {
    throw new ConfigurationError(
      `${what} needs an agent process to wait in: call it from an action (or a tool an action's LLM calls) of an agent run with platform.runAgent.`,
    );
  }
  return waits;
}

function checkTimeout(what: string, options: WaitForOptions | undefined): number | undefined {
  const timeoutMs = options?.timeoutMs;
  if (timeoutMs !== undefined && (!Number.isFinite(timeoutMs) || timeoutMs <= 0))
    throw new ConfigurationError(
      `${what}: timeoutMs must be a positive number of milliseconds, got ${timeoutMs}.`,
    );
  return timeoutMs;
}

/**
 * Embabel's awaitables: code in an action (or a tool) asks a person and gets
 * the answer. The first time, the process goes `waiting` with the request;
 * once answered (`platform.respond`), the action runs again and the same
 * call returns the answer. Loops and awaitables before it in the action are
 * replayed from the process's journal (no LLM call is repeated); other code
 * before it runs again, so keep side effects after the wait or in tools.
 */
export const WaitFor = {
  /** Asks a person to confirm `payload` (shown as JSON with `message`); resolves to `{ approved: true }` or `{ approved: false, reason }`. */
  async confirmation(
    payload: unknown,
    message: string,
    options?: WaitForOptions,
  ): Promise<ConfirmationResponse> {
    const timeoutMs = checkTimeout("WaitFor.confirmation", options);
    const waits = waitsOf("WaitFor.confirmation");
    const { index } = waits.enter();
    const key = `slot:${index}`;
    const answer = waits.answerOf(key);
    if (answer !== undefined) return answer as ConfirmationResponse;
    waits.record(index, { kind: "awaitable" });
    throw new AwaitingResponse([
      {
        kind: "confirmation",
        key,
        payload: jsonSafe(payload),
        message,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      },
    ]);
  },

  /** Asks a person to fill in a form of `schema`'s fields titled `title`; resolves to the submitted values, parsed by `schema`. */
  async formSubmission<S extends z.ZodType>(
    title: string,
    schema: S,
    options?: WaitForOptions,
  ): Promise<z.output<S>> {
    const timeoutMs = checkTimeout("WaitFor.formSubmission", options);
    const json = zodToJsonSchema(schema, `form '${title}'`);
    const waits = waitsOf("WaitFor.formSubmission");
    const { index } = waits.enter();
    const key = `slot:${index}`;
    const answer = waits.answerOf(key);
    let problem: string | undefined;
    if (answer !== undefined) {
      const parsed = schema.safeParse(answer);
      if (parsed.success) return parsed.data;
      if ((answer as { timedOut?: unknown }).timedOut === true)
        throw new EmbabelError(`Form '${title}' was not submitted within ${timeoutMs ?? "its"} ms.`);
      // Values that passed the JSON Schema but not the zod schema (a refinement, checked only here after a
      // resume elsewhere): the form is asked again with the problem, the run does not fail.
      problem = describeZodIssues(parsed.error).join("; ");
      waits.dropAnswer(key);
    }
    waits.record(index, { kind: "awaitable" });
    const request: PendingRequest = {
      kind: "form",
      key,
      title,
      schema: json,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(problem !== undefined ? { problem } : {}),
    };
    throw new AwaitingResponse([
      AnswerChecks.attach(request, (value) => {
        const checked = schema.safeParse(value);
        return checked.success ? undefined : describeZodIssues(checked.error).join("; ");
      }),
    ]);
  },
};
