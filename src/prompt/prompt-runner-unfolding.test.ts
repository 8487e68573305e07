// Integration with the progressive layer (which sits above this one): a
// runner's tool object decorated with @unfoldingTools is offered as one facade.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { unfoldingTools } from "../progressive/index.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { llmTool } from "../tool/llm-tool.js";
import { PromptRunner } from "./prompt-runner.js";
import { ToolGroupRegistry } from "./tool-group-registry.js";

@unfoldingTools({
  name: "database_operations",
  description: "Database operations. Invoke to see specific tools.",
})
class DatabaseTools {
  @llmTool({ description: "Execute a SQL query", input: z.object({ sql: z.string() }) })
  query({ sql }: { sql: string }): string {
    return `rows for ${sql}`;
  }

  @llmTool({ description: "Count the rows of a table", input: z.object({ table: z.string() }) })
  count({ table }: { table: string }): string {
    return `${table}: 3`;
  }
}

describe("PromptRunner.withToolObject with an @unfoldingTools class", () => {
  it("offers one facade first, then its inner tools after the model invokes it", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations"),
      ScriptedModel.toolCall("count", { table: "users" }),
      ScriptedModel.text("3 users"),
    );
    const runner = PromptRunner.create({
      resolveLlm: () => ({ model, name: "main", settings: {} }),
      toolGroups: new ToolGroupRegistry(),
    });
    expect(await runner.withToolObject(new DatabaseTools()).generateText("How many users?")).toBe("3 users");
    expect(model.requests[0]?.toolNames).toEqual(["database_operations"]);
    expect(model.requests[1]?.toolNames).toEqual(expect.arrayContaining(["query", "count"]));
    expect(model.requests[2]?.toolResults[0]?.output).toEqual({ type: "text", value: "users: 3" });
  });
});
