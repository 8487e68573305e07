import { ConfigurationError } from "../errors/configuration-error.js";
import type {
  ApprovalAnswer,
  ApprovalAuthority,
  ApprovalCallback,
  ApprovalCheck,
} from "../tool/approval-authority.js";

/** The reason of an approval nobody answered in time. */
export const TIMED_OUT_REASON = "timed out";

/**
 * An {@link ApprovalAuthority} that asks `callback` (outside an agent process):
 * every call is answered at once, nothing is kept. A call whose approval has
 * `timeoutMs` is denied with reason "timed out" when the callback takes longer.
 */
export function approvalCallbackAuthority(callback: ApprovalCallback): ApprovalAuthority {
  return {
    async decide(check: ApprovalCheck): Promise<ApprovalAnswer> {
      // Looking ahead never asks: the callback answers when the call comes.
      if (check.peek) return { approved: true };
      const question = {
        toolName: check.toolName,
        input: check.value,
        message: check.message,
        ...(check.problem !== undefined ? { problem: check.problem } : {}),
      };
      const answer = Promise.resolve().then(() => callback(question));
      const answered =
        check.timeoutMs === undefined ? await answer : await withTimeout(answer, check.timeoutMs);
      return checkedAnswer(answered, check.toolName);
    },
  };
}

async function withTimeout(answer: Promise<ApprovalAnswer>, timeoutMs: number): Promise<ApprovalAnswer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<ApprovalAnswer>((resolve) => {
    timer = setTimeout(() => resolve({ approved: false, reason: TIMED_OUT_REASON }), timeoutMs);
  });
  try {
    return await Promise.race([answer, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The callback's answer as the gate reads it; anything but `{ approved: boolean }` is a programming error. */
function checkedAnswer(answer: unknown, toolName: string): ApprovalAnswer {
  if (
    typeof answer !== "object" ||
    answer === null ||
    typeof (answer as { approved?: unknown }).approved !== "boolean"
  )
    throw new ConfigurationError(
      `The approval callback must return { approved: true | false } for tool '${toolName}', got ${JSON.stringify(answer)}.`,
    );
  const { approved, input, reason } = answer as { approved: boolean; input?: unknown; reason?: unknown };
  if (!approved) return typeof reason === "string" ? { approved: false, reason } : { approved: false };
  return input === undefined ? { approved: true } : { approved: true, input };
}
