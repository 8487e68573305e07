import { ToolControlFlowSignal } from "../errors/tool-control-flow-signal.js";
import { type ErrorResult, ToolResult } from "./tool-result.js";

/** Compact JSON of `value`, or `undefined` when it has none (functions, cycles, bigints). */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * The result of a typed tool's function: a {@link ToolResult} as is, a string
 * unquoted, nothing as `""`, anything else as compact JSON text (`{"sum":8}`).
 */
export function typedToolResult(value: unknown): ToolResult {
  if (ToolResult.isToolResult(value)) return value;
  if (typeof value === "string") return ToolResult.text(value);
  if (value === undefined) return ToolResult.text("");
  return ToolResult.text(jsonOf(value) ?? String(value));
}

/**
 * The result of an `@llmTool` method: a {@link ToolResult} as is, a string as
 * text, nothing as `""`, anything else as its JSON with the value attached as
 * the artifact (`8` → `withArtifact("8", 8)`).
 */
export function methodToolResult(value: unknown): ToolResult {
  if (ToolResult.isToolResult(value)) return value;
  if (typeof value === "string") return ToolResult.text(value);
  if (value === undefined || value === null) return ToolResult.text("");
  return ToolResult.withArtifact(jsonOf(value) ?? String(value), value);
}

/**
 * Turns a thrown value into an error result (`message`, or `Tool invocation
 * failed` when there is none). Control-flow signals are rethrown untouched.
 */
export function failedToolResult(error: unknown): ErrorResult {
  if (ToolControlFlowSignal.isInstance(error)) throw error;
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return ToolResult.error(message.length > 0 ? message : "Tool invocation failed", error);
}
