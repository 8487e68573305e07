const brand = Symbol.for("embabel-ts.tool-result");

/** A plain text result: the most common kind. */
export interface TextResult {
  readonly kind: "text";
  /** The text the LLM sees. */
  readonly content: string;
}

/** A result whose `content` the LLM sees and whose `artifact` stays with the application (sinks, chaining, assets). */
export interface ArtifactResult {
  readonly kind: "artifact";
  /** The text the LLM sees. */
  readonly content: string;
  /** The value kept for the application (any value, possibly a list); never shown to the LLM. */
  readonly artifact: unknown;
}

/** A failure the LLM is told about; `content` is the message. */
export interface ErrorResult {
  readonly kind: "error";
  /** The error message the LLM reads. */
  readonly content: string;
  /** What was thrown, if anything, for logs and the application. */
  readonly cause?: unknown;
}

/** What a tool call returns: text, text with an artifact, or an error. */
export type ToolResult = TextResult | ArtifactResult | ErrorResult;

function branded<T extends ToolResult>(result: T): T {
  Object.defineProperty(result, brand, { value: true });
  return result;
}

/** Factories and guards for {@link ToolResult}. */
export const ToolResult = {
  /** A text result. */
  text(content: string): TextResult {
    return branded({ kind: "text", content });
  },
  /** A result carrying an artifact the LLM never sees. */
  withArtifact(content: string, artifact: unknown): ArtifactResult {
    return branded({ kind: "artifact", content, artifact });
  },
  /** An error result; `message` is what the LLM reads. */
  error(message: string, cause?: unknown): ErrorResult {
    return branded(
      cause === undefined ? { kind: "error", content: message } : { kind: "error", content: message, cause },
    );
  },
  /** True for values made by these factories (never for look-alike plain objects). */
  isToolResult(value: unknown): value is ToolResult {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  },
};
