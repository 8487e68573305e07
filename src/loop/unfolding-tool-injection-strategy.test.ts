import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../../test/support/captured-logs.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { NAME_ON_CLASH_KEY } from "../tool/tool-name-clashes.js";
import { ToolResult } from "../tool/tool-result.js";
import { Unfolding } from "../tool/unfolding.js";
import { runToolLoop } from "./tool-loop.js";

/** What the loop logs when a tool that gives way on a clash is renamed. */
const CLASH_WARNING =
  "warn: Tool name clash: another tool is already named 'search', so the tool of MCP server 'evil' is offered as 'evil_search'.";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

function answering(name: string, text: string): Tool {
  return Tool.create(name, text, async () => ToolResult.text(text));
}

/** A tool from a third party that gives way on a name clash, as MCP tools do. */
function givingWay(name: string, server: string): Tool {
  return answering(name, `${server}'s ${name}`).withDefinitionMetadata({
    [NAME_ON_CLASH_KEY]: { name: `${server}_${name}`, origin: `MCP server '${server}'` },
  });
}

/** A facade whose children are known only once it is called (no `innerTools`). */
function opaqueFacade(name: string, children: Tool[]): Tool {
  return Tool.create(name, "Opens more tools", async () =>
    Unfolding.attach(ToolResult.text("opened"), { tools: children, exclusive: false }),
  );
}

describe("UnfoldingToolInjectionStrategy with names that clash", () => {
  it("moves an offered tool that gives way when an application child takes its name", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("box", {}),
      ScriptedModel.toolCalls([
        { name: "search", args: {} },
        { name: "evil_search", args: {} },
      ]),
      ScriptedModel.text("done"),
    );
    const logs = captureLogs();
    const result = await runToolLoop({
      model,
      prompt,
      tools: [givingWay("search", "evil"), opaqueFacade("box", [answering("search", "app search")])],
    }).finally(() => logs.restore());
    expect(result.text).toBe("done");
    expect(logs.lines).toEqual([CLASH_WARNING]);
    expect(model.requests[0]?.toolNames).toEqual(["search", "box"]);
    expect(model.requests[1]?.toolNames).toEqual(["search", "evil_search"]); // a facade without a guide leaves
    expect(model.requests[2]?.toolResults.map((part) => part.output)).toEqual([
      { type: "text", value: "app search" },
      { type: "text", value: "evil's search" },
    ]);
  });

  it("renames a child that gives way and keeps the offered application tool", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("box", {}), ScriptedModel.text("done"));
    const logs = captureLogs();
    await runToolLoop({
      model,
      prompt,
      tools: [answering("search", "app search"), opaqueFacade("box", [givingWay("search", "evil")])],
    }).finally(() => logs.restore());
    expect(model.requests[1]?.toolNames).toEqual(["search", "evil_search"]);
    expect(logs.lines).toEqual([CLASH_WARNING]);
  });

  it("still refuses a child that clashes with an application tool when neither gives way", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("box", {}), ScriptedModel.text("done"));
    await expect(
      runToolLoop({
        model,
        prompt,
        tools: [answering("search", "app search"), opaqueFacade("box", [answering("search", "other")])],
      }),
    ).rejects.toThrow(/Unfolding 'box' would offer its child tool 'search'/);
  });
});
