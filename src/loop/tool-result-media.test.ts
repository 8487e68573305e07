// A tool's images and audio (ToolContent artifacts) reach the model as file
// parts beside the tool's text; an embedded resource stays the tool's (its
// text is what the tool wrote).
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolContent } from "../tool/tool-content.js";
import { ToolResult } from "../tool/tool-result.js";
import { runToolLoop } from "./tool-loop.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "draw" }] }];
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

async function firstResultOf(result: ToolResult) {
  const tool = Tool.create("draw", "Draws", () => result);
  const model = ScriptedModel.of(ScriptedModel.toolCall("draw", {}), ScriptedModel.text("done"));
  await runToolLoop({ model, prompt, tools: [tool] });
  return model.requests[1]?.toolResults[0]?.output;
}

describe("a tool's media, to the model", () => {
  it("sends an image and audio as file parts after the text, in order", async () => {
    const output = await firstResultOf(
      ToolResult.withArtifact("A chart and its narration", [
        ToolContent.image(PNG, "image/png"),
        ToolContent.audio("UklGRg==", "audio/wav"),
      ]),
    );
    expect(output).toEqual({
      type: "content",
      value: [
        { type: "text", text: "A chart and its narration" },
        { type: "file-data", data: Buffer.from(PNG).toString("base64"), mediaType: "image/png" },
        { type: "file-data", data: "UklGRg==", mediaType: "audio/wav" },
      ],
    });
  });

  it("sends only the text for an embedded resource or an artifact that is not content", async () => {
    expect(
      await firstResultOf(
        ToolResult.withArtifact(
          "The report",
          ToolContent.resource("file:///report.txt", "text/plain", { text: "x" }),
        ),
      ),
    ).toEqual({ type: "text", value: "The report" });
    expect(await firstResultOf(ToolResult.withArtifact("Totals", { total: 3 }))).toEqual({
      type: "text",
      value: "Totals",
    });
  });
});
