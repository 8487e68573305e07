import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ChainedToolInjectionStrategy } from "../loop/chained-tool-injection-strategy.js";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { ToolChainingConfig } from "./tool-chaining.js";

const EmailInput = z.object({ email: z.string().describe("The new address") });

class User {
  constructor(
    readonly name: string,
    readonly role: "admin" | "user" = "user",
  ) {}

  @llmTool({ description: "Get user's profile information" })
  getProfile(): string {
    return `Profile for ${this.name}`;
  }

  @llmTool({ description: "Update the user's email address", input: EmailInput })
  updateEmail({ email }: z.output<typeof EmailInput>, context: ToolCallContext): string {
    return `Email of ${this.name} updated to ${email} (tenant ${context.get("tenant") ?? "none"})`;
  }
}

class Order {
  constructor(readonly id: string) {}

  @llmTool({ description: "Cancel the order" })
  cancel(): string {
    return `Order ${this.id} cancelled`;
  }
}

const users: Record<string, User> = { alice: new User("Alice", "admin"), bob: new User("Bob") };

const getUser = Tool.create(
  "get_user",
  "Retrieves one user",
  Tool.InputSchema.of(Tool.Parameter.string("id", "User id")),
  (input) => {
    const user = users[(JSON.parse(input) as { id: string }).id];
    return user ? ToolResult.withArtifact(`Found ${user.name}`, user) : ToolResult.error("No such user");
  },
);
const listUsers = Tool.create("list_users", "Lists users", () =>
  ToolResult.withArtifact("Alice, Bob", Object.values(users)),
);
const getOrder = Tool.create("get_order", "Retrieves an order", () =>
  ToolResult.withArtifact("Order 42", new Order("42")),
);

/** Runs a loop over `tools` with the chaining `config`; returns the model and the loop's result. */
async function run(
  config: ToolChainingConfig,
  steps: Parameters<typeof ScriptedModel.of>,
  tools = [getUser],
) {
  const model = ScriptedModel.of(...steps);
  const session = config.start();
  const result = await runToolLoop({
    model,
    prompt: [{ role: "user", content: [{ type: "text", text: "go" }] }],
    tools: [...tools, ...session.tools],
    injectionStrategy: ChainedToolInjectionStrategy.withUnfolding(session.strategy),
    context: ToolCallContext.of({ tenant: "acme" }),
  });
  return { model, result };
}

function toolResultText(model: ScriptedModel, request: number): string[] {
  return (model.requests[request]?.toolResults ?? []).map((part) =>
    part.output.type === "text" || part.output.type === "error-text" ? part.output.value : "",
  );
}

describe("ToolChainingConfig.from (registered types)", () => {
  it("declares one placeholder per @llmTool method from the start, with the note and the real schema", async () => {
    const { model } = await run(ToolChainingConfig.NONE.from(User), [ScriptedModel.text("ok")]);
    expect(model.requests[0]?.toolNames).toEqual(["get_user", "getProfile", "updateEmail"]);
    const update = model.requests[0]?.tools.find((tool) => tool.name === "updateEmail");
    expect(update?.description).toBe(
      "Update the user's email address\n\nNote: This tool requires a User instance to be retrieved first.",
    );
    expect(update?.inputSchema).toMatchObject({ properties: { email: { type: "string" } } });
  });

  it("answers an unbound placeholder that an instance must be retrieved first", async () => {
    const { model } = await run(ToolChainingConfig.NONE.from(User), [
      ScriptedModel.toolCall("getProfile", {}),
      ScriptedModel.text("done"),
    ]);
    expect(toolResultText(model, 1)).toEqual([
      "This tool is not yet available. You must first retrieve a single User instance.",
    ]);
  });

  it("binds the returned instance: the placeholder calls its method with the input and the context", async () => {
    const { model } = await run(ToolChainingConfig.NONE.from(User), [
      ScriptedModel.toolCall("get_user", { id: "alice" }),
      ScriptedModel.toolCall("updateEmail", { email: "a@new.com" }),
      ScriptedModel.text("done"),
    ]);
    expect(toolResultText(model, 2)).toEqual(["Email of Alice updated to a@new.com (tenant acme)"]);
  });

  it("lets the last returned instance win", async () => {
    const { model } = await run(ToolChainingConfig.NONE.from(User), [
      ScriptedModel.toolCall("get_user", { id: "alice" }),
      ScriptedModel.toolCall("get_user", { id: "bob" }),
      ScriptedModel.toolCall("getProfile", {}),
      ScriptedModel.text("done"),
    ]);
    expect(toolResultText(model, 3)).toEqual(["Profile for Bob"]);
  });

  it("never binds an array of instances", async () => {
    const { model } = await run(
      ToolChainingConfig.NONE.from(User),
      [
        ScriptedModel.toolCall("list_users", {}),
        ScriptedModel.toolCall("getProfile", {}),
        ScriptedModel.text("x"),
      ],
      [getUser, listUsers],
    );
    expect(toolResultText(model, 2)[0]).toContain("not yet available");
  });

  it("binds only instances the predicate accepts, and gives it the current process", async () => {
    const seen: unknown[] = [];
    const config = ToolChainingConfig.NONE.from(User, (user, process) => {
      seen.push(process?.id);
      return user.role === "admin";
    });
    const process: AmbientProcess = { id: "p-7", blackboard: { add: () => undefined } };
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("get_user", { id: "bob" }),
      ScriptedModel.toolCall("getProfile", {}),
      ScriptedModel.toolCall("get_user", { id: "alice" }),
      ScriptedModel.toolCall("getProfile", {}),
      ScriptedModel.text("done"),
    );
    const session = config.start();
    await AmbientProcess.run(process, () =>
      runToolLoop({
        model,
        prompt: [{ role: "user", content: [{ type: "text", text: "go" }] }],
        tools: [getUser, ...session.tools],
        injectionStrategy: session.strategy,
      }),
    );
    expect(toolResultText(model, 2)[0]).toContain("not yet available");
    expect(toolResultText(model, 4)).toEqual(["Profile for Alice"]);
    expect(seen).toEqual(["p-7", "p-7"]);
  });

  it("keeps bindings per session: a second interaction starts unbound", async () => {
    const config = ToolChainingConfig.NONE.from(User);
    await run(config, [ScriptedModel.toolCall("get_user", { id: "alice" }), ScriptedModel.text("x")]);
    const { model } = await run(config, [ScriptedModel.toolCall("getProfile", {}), ScriptedModel.text("x")]);
    expect(toolResultText(model, 1)[0]).toContain("not yet available");
  });

  it("rejects a type without @llmTool methods, naming it", () => {
    const Plain = domainType("Plain", z.object({ a: z.string() }));
    expect(() => ToolChainingConfig.NONE.from(Plain)).toThrow(ConfigurationError);
    expect(() => ToolChainingConfig.NONE.from(class Empty {})).toThrow(/Empty: it has no @llmTool methods/);
  });
});

describe("ToolChainingConfig.withAny (auto-discovery)", () => {
  it("appends the returned object's tools for the next call, and replaces them with the next object's", async () => {
    const { model } = await run(
      ToolChainingConfig.NONE.withAny(),
      [
        ScriptedModel.toolCall("get_user", { id: "alice" }),
        ScriptedModel.toolCall("getProfile", {}),
        ScriptedModel.toolCall("get_order", {}),
        ScriptedModel.toolCall("cancel", {}),
        ScriptedModel.text("done"),
      ],
      [getUser, getOrder],
    );
    expect(model.toolNamesPerRequest).toEqual([
      ["get_user", "get_order"],
      ["get_user", "get_order", "getProfile", "updateEmail"],
      ["get_user", "get_order", "getProfile", "updateEmail"],
      ["get_user", "get_order", "cancel"],
      ["get_user", "get_order", "cancel"],
    ]);
    expect(toolResultText(model, 2)).toEqual(["Profile for Alice"]);
    expect(toolResultText(model, 4)).toEqual(["Order 42 cancelled"]);
  });

  it("never removes a tool it did not add when a discovered name is already taken", async () => {
    const clash = Tool.create("cancel", "The app's own cancel", () => ToolResult.text("app cancel"));
    const { model } = await run(
      ToolChainingConfig.NONE.withAny(),
      [
        ScriptedModel.toolCall("get_order", {}),
        ScriptedModel.toolCall("get_user", { id: "bob" }),
        ScriptedModel.text("done"),
      ],
      [clash, getOrder, getUser],
    );
    expect(model.toolNamesPerRequest[1]).toEqual(["cancel", "get_order", "get_user"]);
    expect(model.toolNamesPerRequest[2]).toEqual([
      "cancel",
      "get_order",
      "get_user",
      "getProfile",
      "updateEmail",
    ]);
  });
});
