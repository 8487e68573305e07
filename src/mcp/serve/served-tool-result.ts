import type { CallToolResult } from "@modelcontextprotocol/server";
import { type ToolContent as Content, ToolContent } from "../../tool/tool-content.js";
import type { ToolResult } from "../../tool/tool-result.js";

type ContentBlock = CallToolResult["content"][number];

/** One {@link ToolContent} as an MCP content block. */
export function contentBlockOf(content: Content): ContentBlock {
  if (content.type !== "resource")
    return { type: content.type, data: content.data, mimeType: content.mimeType };
  const { uri, mimeType } = content;
  return {
    type: "resource",
    resource:
      content.blob === undefined
        ? { uri, mimeType, text: content.text ?? "" }
        : { uri, mimeType, blob: content.blob },
  };
}

/** Whether `artifact` is an MCP tool result (what this project's MCP client keeps), to pass on as it is. */
function isCallToolResult(artifact: unknown): artifact is CallToolResult {
  return (
    typeof artifact === "object" &&
    artifact !== null &&
    Array.isArray((artifact as { content?: unknown }).content) &&
    (artifact as { content: unknown[] }).content.every(
      (block) =>
        typeof block === "object" && block !== null && typeof (block as { type?: unknown }).type === "string",
    )
  );
}

/**
 * A {@link ToolResult} as an MCP result: an error becomes `isError: true`
 * with its message; text is one text block; an artifact that is
 * {@link ToolContent} (or a list holding some) adds image, audio and
 * embedded-resource blocks after the text (an empty text is left out); an
 * artifact that is itself an MCP result (a remote tool's, through this
 * project's client) is passed on whole.
 */
export function servedToolResult(result: ToolResult): CallToolResult {
  if (result.kind === "error") return { content: [{ type: "text", text: result.content }], isError: true };
  if (result.kind === "artifact" && isCallToolResult(result.artifact)) return result.artifact;
  const media = result.kind === "artifact" ? ToolContent.of(result.artifact).map(contentBlockOf) : [];
  const text: ContentBlock[] =
    media.length > 0 && result.content === "" ? [] : [{ type: "text", text: result.content }];
  return { content: [...text, ...media] };
}
