import type { ToolResult } from "./tool-result.js";

const NOTE = Symbol.for("embabel-ts.tool-result-note");

/**
 * A short note the model reads after a result, as a separate text part, so
 * the result's own content stays exactly as the tool returned it (a JSON
 * result stays valid JSON). Invisible to the application and to JSON.
 */
export const ToolResultNote = {
  /** Returns `result` carrying `note` (replacing any earlier note). */
  attach<R extends ToolResult>(result: R, note: string): R {
    Object.defineProperty(result, NOTE, { value: note, configurable: true });
    return result;
  },
  /** The note `result` carries, if any. */
  of(result: ToolResult): string | undefined {
    return (result as unknown as Record<symbol, string | undefined>)[NOTE];
  },
};
