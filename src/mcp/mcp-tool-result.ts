import type { CallToolResult } from "@modelcontextprotocol/client";
import { ToolResult } from "../tool/tool-result.js";

type ContentBlock = CallToolResult["content"][number];

/** A short stand-in the LLM reads for a block that is not text. */
function describeBlock(block: ContentBlock): string | undefined {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType}]`;
    case "resource":
      return "text" in block.resource ? block.resource.text : `[resource: ${block.resource.uri}]`;
    case "resource_link":
      return `[resource link: ${block.uri}]`;
    default:
      return undefined;
  }
}

/**
 * An MCP tool result as a {@link ToolResult}: the text parts joined for the
 * LLM; images, audio, resources and `structuredContent` kept as the artifact
 * (the whole `CallToolResult`); `isError` becomes an error result with the
 * server's text (or, with none, a message naming `tool` and its server).
 */
export function toolResultOf(
  result: CallToolResult,
  tool: { readonly client: { readonly name: string }; readonly serverToolName: string },
): ToolResult {
  // The common case, one text block, in a function small enough to be inlined where it is called.
  const content = result.content;
  if (
    content?.length === 1 &&
    content[0]?.type === "text" &&
    !result.isError &&
    result.structuredContent === undefined
  ) {
    return ToolResult.text(content[0].text);
  }
  return anyToolResultOf(result, tool.client.name, tool.serverToolName);
}

function anyToolResultOf(result: CallToolResult, serverName: string, toolName: string): ToolResult {
  const content = result.content ?? [];
  const texts = content.filter((block) => block.type === "text").map((block) => block.text);
  if (result.isError) {
    const message = texts.join("\n").trim();
    return ToolResult.error(
      message.length > 0 ? message : `MCP tool '${toolName}' on server '${serverName}' failed.`,
      result,
    );
  }
  const onlyText = content.every((block) => block.type === "text") && result.structuredContent === undefined;
  if (onlyText) return ToolResult.text(texts.join("\n"));
  const described = content.map(describeBlock).filter((part): part is string => part !== undefined);
  const text =
    texts.length > 0
      ? texts.join("\n")
      : result.structuredContent !== undefined
        ? JSON.stringify(result.structuredContent)
        : described.join("\n");
  return ToolResult.withArtifact(text, result);
}
