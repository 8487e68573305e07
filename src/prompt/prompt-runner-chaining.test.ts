import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedModel } from "../testing/scripted-model.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { PromptRunner } from "./prompt-runner.js";
import { ToolGroupRegistry } from "./tool-group-registry.js";

const EmailInput = z.object({ email: z.string() });

class User {
  constructor(readonly name: string) {}

  @llmTool({ description: "Update the user's email address", input: EmailInput })
  updateEmail({ email }: z.output<typeof EmailInput>): string {
    return `Email of ${this.name} updated to ${email}`;
  }
}

class Order {
  @llmTool({ description: "Cancel the order" })
  cancel(): string {
    return "cancelled";
  }
}

const getUser = Tool.create("get_user", "Retrieves a user", () =>
  ToolResult.withArtifact("Found Alice", new User("Alice")),
);
const getOrder = Tool.create("get_order", "Retrieves an order", () =>
  ToolResult.withArtifact("Order 1", new Order()),
);

function runnerOn(model: ScriptedModel): PromptRunner {
  return PromptRunner.create({
    resolveLlm: () => ({ model, name: "main", settings: {} }),
    toolGroups: new ToolGroupRegistry(),
  });
}

describe("PromptRunner tool chaining", () => {
  it("withToolChainingFrom: a returned User's methods work through their placeholders", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("get_user", {}),
      ScriptedModel.toolCall("updateEmail", { email: "alice@new.com" }),
      ScriptedModel.text("Updated."),
    );
    const text = await runnerOn(model)
      .withToolChainingFrom(User)
      .withTools(getUser)
      .generateText("Find user Alice and update her email to alice@new.com");
    expect(text).toBe("Updated.");
    expect(model.requests[0]?.toolNames).toEqual(["get_user", "updateEmail"]);
    expect(model.requests[2]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: "Email of Alice updated to alice@new.com",
    });
  });

  it("withToolChainingFromAny: returned objects' tools are appended on the next call", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("get_order", {}),
      ScriptedModel.toolCall("cancel", {}),
      ScriptedModel.text("Cancelled."),
    );
    await runnerOn(model).withToolChainingFromAny().withTools(getOrder, getUser).generateText("cancel it");
    expect(model.toolNamesPerRequest).toEqual([
      ["get_order", "get_user"],
      ["get_order", "get_user", "cancel"],
      ["get_order", "get_user", "cancel"],
    ]);
  });

  it("createObject's corrective retry keeps the bindings made before it", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("get_user", {}),
      ScriptedModel.text("not JSON"),
      ScriptedModel.toolCall("updateEmail", { email: "alice@new.com" }),
      ScriptedModel.text('{"done":true}'),
    );
    const answer = await runnerOn(model)
      .withToolChainingFrom(User)
      .withTools(getUser)
      .createObject("Update Alice's email to alice@new.com", z.object({ done: z.boolean() }));
    expect(answer).toEqual({ done: true });
    expect(model.requests[3]?.toolResults.at(-1)?.output).toEqual({
      type: "text",
      value: "Email of Alice updated to alice@new.com",
    });
  });

  it("createObject's corrective retry still offers the tools discovered before it", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("get_order", {}),
      ScriptedModel.text("not JSON"),
      ScriptedModel.toolCall("cancel", {}),
      ScriptedModel.text('{"done":true}'),
    );
    await runnerOn(model)
      .withToolChainingFromAny()
      .withTools(getOrder)
      .createObject("Cancel the order", z.object({ done: z.boolean() }));
    expect(model.toolNamesPerRequest).toEqual([
      ["get_order"],
      ["get_order", "cancel"],
      ["get_order", "cancel"],
      ["get_order", "cancel"],
    ]);
    expect(model.requests[3]?.toolResults.at(-1)?.output).toEqual({ type: "text", value: "cancelled" });
  });

  it("is copy-on-write: the runner it came from has no chaining", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("a"), ScriptedModel.text("b"));
    const base = runnerOn(model).withTools(getUser);
    base.withToolChainingFrom(User);
    await base.generateText("x");
    expect(model.requests[0]?.toolNames).toEqual(["get_user"]);
  });
});
