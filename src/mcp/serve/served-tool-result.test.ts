import { describe, expect, it } from "vitest";
import { ToolContent } from "../../tool/tool-content.js";
import { ToolResult } from "../../tool/tool-result.js";
import { servedToolResult } from "./served-tool-result.js";

describe("servedToolResult", () => {
  it("sends text, then each ToolContent of the artifact as MCP content", () => {
    const result = ToolResult.withArtifact("A chart:", [
      ToolContent.image(Uint8Array.of(1, 2, 3), "image/png"),
      ToolContent.audio("AAAA", "audio/wav"),
      ToolContent.resource("r://text", "text/plain", { text: "hello" }),
      ToolContent.resource("r://bytes", "application/octet-stream", { bytes: Uint8Array.of(255) }),
      { not: "content" },
    ]);
    expect(servedToolResult(result)).toEqual({
      content: [
        { type: "text", text: "A chart:" },
        { type: "image", data: "AQID", mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "r://text", mimeType: "text/plain", text: "hello" } },
        {
          type: "resource",
          resource: { uri: "r://bytes", mimeType: "application/octet-stream", blob: "/w==" },
        },
      ],
    });
  });

  it("leaves out an empty text beside content, and keeps it when there is none", () => {
    expect(servedToolResult(ToolResult.withArtifact("", ToolContent.image("AA==", "image/png")))).toEqual({
      content: [{ type: "image", data: "AA==", mimeType: "image/png" }],
    });
    expect(servedToolResult(ToolResult.withArtifact("", { plain: 1 }))).toEqual({
      content: [{ type: "text", text: "" }],
    });
  });

  it("passes an MCP result artifact on whole, and makes an error isError", () => {
    const remote = { content: [{ type: "image" as const, data: "AA==", mimeType: "image/png" }] };
    expect(servedToolResult(ToolResult.withArtifact("[image: image/png]", remote))).toBe(remote);
    expect(servedToolResult(ToolResult.error("boom"))).toEqual({
      content: [{ type: "text", text: "boom" }],
      isError: true,
    });
  });

  it("does not take a look-alike plain object for ToolContent", () => {
    const lookAlike = { type: "image", data: "AA==", mimeType: "image/png" };
    expect(ToolContent.isToolContent(lookAlike)).toBe(false);
    expect(servedToolResult(ToolResult.withArtifact("x", lookAlike))).toEqual({
      content: [{ type: "text", text: "x" }],
    });
  });
});
