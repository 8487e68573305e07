// Integration with the progressive layer (which sits above this one): a
// runner's tool object decorated with @unfoldingTools is offered as one facade.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UnfoldingTool, unfoldingTools } from "../progressive/index.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import type { LlmReference } from "./llm-reference.js";
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

/** Like the specification's Memory: a Tool (one facade) and an LlmReference (prompt + inner tools). */
class Memory extends DelegatingTool implements LlmReference {
  readonly name = "Memory";
  readonly description = "What the user said before";
  constructor(private readonly inner: readonly Tool[]) {
    super(UnfoldingTool.of("memory", "Conversation memory. Invoke to see its tools.", inner));
  }
  notes(): string {
    return "Recall before answering";
  }
  tools(): readonly Tool[] {
    return this.inner;
  }
}

describe("an object that is both a Tool and an LlmReference", () => {
  const inner = [
    Tool.create("remember", "Stores a fact", async () => ToolResult.text("stored")),
    Tool.create("recall", "Recalls facts", async () => ToolResult.text("facts")),
  ];

  function runnerOn(model: ScriptedModel): PromptRunner {
    return PromptRunner.create({
      resolveLlm: () => ({ model, name: "main", settings: {} }),
      toolGroups: new ToolGroupRegistry(),
    });
  }

  it("as a reference: contributes to the system prompt and offers its inner tools, prefixed", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await runnerOn(model).withReference(new Memory(inner)).generateText("hi");
    expect(model.requests[0]?.toolNames).toEqual(["memory_remember", "memory_recall"]);
    const system = model.requests[0]?.prompt[0];
    expect(system?.role === "system" && system.content).toContain(
      "Reference: Memory\nDescription: What the user said before",
    );
  });

  it("as a tool: offers the one facade and adds nothing to the system prompt", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    await runnerOn(model).withTool(new Memory(inner)).generateText("hi");
    expect(model.requests[0]?.toolNames).toEqual(["memory"]);
    expect(model.requests[0]?.prompt.some((message) => message.role === "system")).toBe(false);
  });
});
