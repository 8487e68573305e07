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

/**
 * The prototype of every result: it carries the brand, so making a result is
 * a plain object creation (defining the brand on each result cost ten times more).
 */
const BRANDED: object = Object.create(Object.prototype, { [brand]: { value: true } });

function branded<T extends ToolResult>(kind: T["kind"], content: string): { -readonly [K in keyof T]: T[K] } {
  const result = Object.create(BRANDED);
  result.kind = kind;
  result.content = content;
  return result;
}

/** Factories and guards for {@link ToolResult}. */
export const ToolResult = {
  /** A text result. */
  text(content: string): TextResult {
    return branded<TextResult>("text", content);
  },
  /** A result carrying an artifact the LLM never sees. */
  withArtifact(content: string, artifact: unknown): ArtifactResult {
    const result = branded<ArtifactResult>("artifact", content);
    result.artifact = artifact;
    return result;
  },
  /** An error result; `message` is what the LLM reads. */
  error(message: string, cause?: unknown): ErrorResult {
    const result = branded<ErrorResult>("error", message);
    if (cause !== undefined) result.cause = cause;
    return result;
  },
  /** True for values made by these factories (never for look-alike plain objects). */
  isToolResult(value: unknown): value is ToolResult {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  },
};
