import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolResult } from "../tool/tool-result.js";
import { ToolResultNote } from "../tool/tool-result-note.js";

/** The most characters of one tool result sent to the model. */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 100_000;

/** Throws a {@link ConfigurationError} unless `value` is a positive integer (or `Infinity`, no cap). */
export function checkMaxToolResultChars(owner: string, value: number): void {
  if (value !== Number.POSITIVE_INFINITY && (!Number.isInteger(value) || value < 1)) {
    throw new ConfigurationError(
      `${owner} maxToolResultChars must be a positive integer (or Infinity for no cap), got ${value}.`,
    );
  }
}

/** `1,234,567`. */
function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** The note that ends a cut result: how much the model sees, how much was cut, and how to get more. */
export function cutNote(toolName: string, kept: number, total: number): string {
  return (
    `\n\n[Output of tool '${toolName}' cut: showing the first ${count(kept)} of ${count(total)} characters ` +
    `(${count(total - kept)} cut). To see more, call the tool again with narrower arguments ` +
    "(a smaller range, a filter, fewer fields or a later page).]"
  );
}

/**
 * `result` with its content cut to its first `maxChars` characters plus a
 * note saying how much was cut and how to get the rest; an artifact is kept
 * whole (it never goes to the model). Callers check the length first, so a
 * small result costs one comparison.
 */
export function capToolResult(result: ToolResult, maxChars: number, toolName: string): ToolResult {
  const { content } = result;
  let kept = maxChars;
  // Never split a surrogate pair.
  const last = content.charCodeAt(kept - 1);
  if (last >= 0xd800 && last <= 0xdbff) kept -= 1;
  const text = content.slice(0, kept) + cutNote(toolName, kept, content.length);
  const capped =
    result.kind === "artifact"
      ? ToolResult.withArtifact(text, result.artifact)
      : result.kind === "error"
        ? ToolResult.error(text, result.cause)
        : ToolResult.text(text);
  // A note the model reads after the result (a state machine's new state) survives the cut.
  const note = ToolResultNote.of(result);
  return note === undefined ? capped : ToolResultNote.attach(capped, note);
}
