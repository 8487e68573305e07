import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/index.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import type { ToolCallOptions } from "../tool/tool.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { UnfoldingTool } from "./unfolding-tool.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Do it." }] }];

function leaf(name: string, options: { returnDirect?: boolean } = {}): Tool {
  return Tool.create(name, `The ${name} tool`, Tool.Metadata.create(options), () =>
    ToolResult.text(`${name} ran`),
  );
}

/** A user's own decorator: it returns a new result, so nothing the facade put on its result survives. */
class Shouting extends DelegatingTool {
  override async call(
    input: string,
    context?: ToolCallContext,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    const result = await this.delegate.call(input, context, options);
    return ToolResult.text(result.content.toUpperCase());
  }
}

describe("UnfoldingTool behind a decorator that returns a new result", () => {
  it("unfolds: the next call offers the guide, the children and the context tool", async () => {
    const facade = new Shouting(UnfoldingTool.of("db", "Database", [leaf("query"), leaf("insert")]));
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("db", {}),
      ScriptedModel.toolCall("query", {}),
      ScriptedModel.text("Done."),
    );
    const result = await runToolLoop({ model, prompt, tools: [facade, leaf("mail")] });
    expect(result.text).toBe("Done.");
    expect(model.toolNamesPerRequest).toEqual([
      ["db", "mail"],
      ["db", "mail", "query", "insert", "db_context"],
      ["db", "mail", "query", "insert", "db_context"],
    ]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: expect.stringContaining("TOOLS NOW AVAILABLE: QUERY, INSERT."),
    });
  });

  it("unfolds a facade wrapped inside a wrapped facade, level by level", async () => {
    const inner = new Shouting(UnfoldingTool.of("users", "Users", [leaf("add_user")]));
    const outer = new Shouting(UnfoldingTool.of("admin", "Admin", [inner, leaf("audit")]));
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("admin", {}),
      ScriptedModel.toolCall("users", {}),
      ScriptedModel.toolCall("add_user", {}),
      ScriptedModel.text("Done."),
    );
    await runToolLoop({ model, prompt, tools: [outer] });
    expect(model.toolNamesPerRequest.at(-1)).toEqual([
      "admin",
      "users",
      "audit",
      "admin_context",
      "add_user",
      "users_context",
    ]);
  });

  it("ends the loop when a shortcut through the wrapped facade reaches a returnDirect tool", async () => {
    const facade = new Shouting(UnfoldingTool.of("db", "Database", [leaf("export", { returnDirect: true })]));
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("db", { export: {} }),
      ScriptedModel.text("unused"),
    );
    const result = await runToolLoop({ model, prompt, tools: [facade] });
    expect(result).toMatchObject({ text: "EXPORT RAN", returnedDirect: true });
    expect(model.requests).toHaveLength(1);
  });

  it("unfolds when a decorator applied by the loop returns new results", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("db", {}),
      ScriptedModel.toolCall("query", {}),
      ScriptedModel.text("Done."),
    );
    await runToolLoop({
      model,
      prompt,
      tools: [UnfoldingTool.of("db", "Database", [leaf("query")])],
      toolDecorator: (tool) => new Shouting(tool),
      context: ToolCallContext.of({ tenant: "acme" }),
    });
    expect(model.toolNamesPerRequest[1]).toEqual(["db", "query", "db_context"]);
  });
});

describe("a child whose name clashes with a sibling already offered", () => {
  it("is a ConfigurationError naming both, not silently skipped", async () => {
    const dbSearch = Tool.create("search", "Searches the database", () => ToolResult.text("rows"));
    const webSearch = Tool.create("search", "Searches the web", () => ToolResult.text("pages"));
    const model = ScriptedModel.of(ScriptedModel.toolCall("db", {}), ScriptedModel.text("unused"));
    const run = runToolLoop({
      model,
      prompt,
      tools: [UnfoldingTool.of("db", "Database", [dbSearch]), webSearch],
    });
    await expect(run).rejects.toThrow(ConfigurationError);
    await expect(run).rejects.toThrow(
      `Unfolding 'db' would offer its child tool 'search' ("Searches the database"), but a different tool named 'search' ("Searches the web") is already offered.`,
    );
  });

  it("is fine when the sibling is the same tool, even decorated by the loop", async () => {
    const shared = leaf("search");
    const model = ScriptedModel.of(ScriptedModel.toolCall("db", {}), ScriptedModel.text("done"));
    const result = await runToolLoop({
      model,
      prompt,
      tools: [UnfoldingTool.of("db", "Database", [shared, leaf("query")]), shared],
      toolDecorator: (tool) => new Shouting(tool),
    });
    expect(result.text).toBe("done");
    expect(model.toolNamesPerRequest[1]).toEqual(["db", "search", "query", "db_context"]);
  });

  it("is fine when an exclusive facade removes the sibling", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("db", {}), ScriptedModel.text("done"));
    const facade = UnfoldingTool.of("db", "Database", [leaf("search")], { exclusive: true });
    await runToolLoop({ model, prompt, tools: [facade, leaf("search")] });
    expect(model.toolNamesPerRequest[1]).toEqual(["db", "search", "db_context"]);
  });
});
