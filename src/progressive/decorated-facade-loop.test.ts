import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/index.js";
import { ListSink } from "../tool/list-sink.js";
import { OneShotPerLoopTool } from "../tool/one-shot-per-loop-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { UnfoldingTool } from "./unfolding-tool.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Do it." }] }];

function tenantLeaf(name: string, tenants: unknown[]): Tool {
  return Tool.create(name, `The ${name} tool`, (_input, context) => {
    tenants.push(context.get("tenant"));
    return ToolResult.text(`${name} ran`);
  });
}

describe("UnfoldingTool behind the user's decorators in the tool loop", () => {
  it("unfolds under the decorated name, and that name then answers as the guide", async () => {
    const tenants: unknown[] = [];
    const facade = Tool.sinkArtifacts(
      new OneShotPerLoopTool(
        UnfoldingTool.of("db", "Database", [tenantLeaf("query", tenants)]),
        "Use query.",
      ),
      Object,
      new ListSink(),
    ).withName("database");
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database", {}),
      ScriptedModel.toolCall("database", { query: {} }),
      ScriptedModel.toolCall("query", {}),
      ScriptedModel.text("Done."),
    );
    const result = await runToolLoop({
      model,
      prompt,
      tools: [facade],
      context: ToolCallContext.of({ tenant: "acme" }),
    });
    expect(result.text).toBe("Done.");
    // The context tool is named after the name the facade was offered under.
    expect(model.toolNamesPerRequest).toEqual([
      ["database"],
      ["database", "query", "database_context"],
      ["database", "query", "database_context"],
      ["database", "query", "database_context"],
    ]);
    expect(tenants).toEqual(["acme", "acme"]);
    const contextTool = model.requests[1]?.tools.find((tool) => tool.name === "database_context");
    expect(contextTool?.description).toBe("Database. Available: query");
  });
});
