const brand = Symbol.for("embabel-ts.tool-content");

/** An image a tool returns: its bytes (base64) and MIME type. */
export interface ImageContent {
  readonly type: "image";
  /** The bytes, base64-encoded. */
  readonly data: string;
  /** The MIME type, e.g. `image/png`. */
  readonly mimeType: string;
}

/** Audio a tool returns: its bytes (base64) and MIME type. */
export interface AudioContent {
  readonly type: "audio";
  /** The bytes, base64-encoded. */
  readonly data: string;
  /** The MIME type, e.g. `audio/wav`. */
  readonly mimeType: string;
}

/** A resource a tool returns whole: a URI with its text or its bytes (base64 `blob`). */
export interface ResourceContent {
  readonly type: "resource";
  readonly uri: string;
  readonly mimeType: string;
  /** The resource's text (for a text resource). */
  readonly text?: string;
  /** The resource's bytes, base64-encoded (for a binary resource). */
  readonly blob?: string;
}

/** Content beside a tool's text: an image, audio or an embedded resource. */
export type ToolContent = ImageContent | AudioContent | ResourceContent;

/** `data` as base64 (text is taken as base64 already); `btoa` so it runs on every runtime. */
function base64(data: Uint8Array | string): string {
  if (typeof data === "string") return data;
  let binary = "";
  for (let start = 0; start < data.length; start += 0x8000) {
    binary += String.fromCharCode(...data.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

function branded<T extends ToolContent>(content: T): T {
  return Object.defineProperty(content, brand, { value: true }) as T;
}

/**
 * Factories and guards for {@link ToolContent}: what a tool returns besides
 * its text, as the artifact of a result (`ToolResult.withArtifact(text,
 * ToolContent.image(bytes, "image/png"))`, or a list of them). The MCP
 * server sends each as MCP content after the text; the tool loop shows
 * images and audio to the model as file parts.
 */
export const ToolContent = {
  /** An image: `data` as bytes or base64 text. */
  image(data: Uint8Array | string, mimeType: string): ImageContent {
    return branded({ type: "image", data: base64(data), mimeType });
  },
  /** Audio: `data` as bytes or base64 text. */
  audio(data: Uint8Array | string, mimeType: string): AudioContent {
    return branded({ type: "audio", data: base64(data), mimeType });
  },
  /** A text resource (`text`) or a binary one (`bytes`), embedded whole. */
  resource(
    uri: string,
    mimeType: string,
    content: { text: string } | { bytes: Uint8Array },
  ): ResourceContent {
    return branded(
      "text" in content
        ? { type: "resource", uri, mimeType, text: content.text }
        : { type: "resource", uri, mimeType, blob: base64(content.bytes) },
    );
  },
  /** True for values made by these factories. */
  isToolContent(value: unknown): value is ToolContent {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  },
  /** The contents an artifact carries: itself, or the contents in a list; none for anything else. */
  of(artifact: unknown): ToolContent[] {
    if (ToolContent.isToolContent(artifact)) return [artifact];
    if (Array.isArray(artifact)) return artifact.filter(ToolContent.isToolContent);
    return [];
  },
};
