// The chapter's "dynamically configured inner tools" examples (connection
// string, stateful shopping cart), translated to TypeScript and run in the loop.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel, type ScriptedRequest } from "../testing/index.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { UnfoldingTool } from "./unfolding-tool.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Go." }] }];

function resultText(request: ScriptedRequest | undefined): unknown {
  return (request?.toolResults[0]?.output as { value?: unknown } | undefined)?.value;
}

function parse(input: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(input);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const databaseTool = UnfoldingTool.selectable(
  "database",
  "Database operations. Pass 'connection' to configure tools.",
  [], // tools are created dynamically
  InputSchema.of(Param.string("connection", "Database connection string")),
  (input) => {
    const connection = String(parse(input).connection ?? "localhost");
    return [
      Tool.create("query", `Query database at ${connection}`, (queryInput) =>
        ToolResult.text(`Queried ${connection}: ${queryInput}`),
      ),
      Tool.create("insert", `Insert into database at ${connection}`, () =>
        ToolResult.text(`Inserted into ${connection}`),
      ),
    ];
  },
);

function cartTool(): UnfoldingTool {
  return UnfoldingTool.selectable(
    "shopping_cart",
    "Shopping cart. Pass 'cart_id' to select which cart to operate on.",
    [],
    InputSchema.of(Param.string("cart_id", "Shopping cart ID")),
    (input) => {
      // Every call creates a fresh set of tools sharing state.
      const cartId = String(parse(input).cart_id ?? "default");
      const cartItems: string[] = [];
      return [
        Tool.create(
          "add_item",
          `Add item to cart ${cartId}`,
          InputSchema.of(Param.string("item", "Item name")),
          (itemInput) => {
            const item = String(parse(itemInput).item);
            cartItems.push(item);
            return ToolResult.text(`Added ${item}. Total: ${cartItems.length}`);
          },
        ),
        Tool.create("view_cart", `View cart ${cartId} contents`, () =>
          ToolResult.text(`Cart ${cartId}: ${cartItems.join(", ")}`),
        ),
        Tool.create("checkout", `Checkout cart ${cartId}`, () => {
          const total = `${cartItems.length * 5} EUR`;
          cartItems.splice(0);
          return ToolResult.text(`Checked out ${cartId} for ${total}`);
        }),
      ];
    },
  );
}

describe("UnfoldingTool.selectable with a connection string", () => {
  it("injects tools configured with the connection the model chose", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database", { connection: "prod-db.example.com" }),
      ScriptedModel.toolCall("query", { sql: "select 1" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [databaseTool] });
    expect(model.toolNamesPerRequest[1]).toEqual(["database", "query", "insert", "database_context"]);
    expect(model.requests[1]?.tools[1]?.description).toBe("Query database at prod-db.example.com");
    expect(resultText(model.requests[2])).toBe('Queried prod-db.example.com: {"sql":"select 1"}');
  });

  it("answers a missing connection in-band (the schema requires it) without unfolding", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("database", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [databaseTool] });
    expect(model.toolNamesPerRequest[1]).toEqual(["database"]);
    expect(resultText(model.requests[1])).toMatch(/missing required field 'connection'/);
  });
});

describe("UnfoldingTool.selectable with a stateful shopping cart", () => {
  it("keeps the cart's items across calls of the tools one unfolding created", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("shopping_cart", { cart_id: "c42" }),
      ScriptedModel.toolCall("add_item", { item: "apple" }),
      ScriptedModel.toolCall("add_item", { item: "pear" }),
      ScriptedModel.toolCall("view_cart", {}),
      ScriptedModel.toolCall("checkout", {}),
      ScriptedModel.toolCall("view_cart", {}),
      ScriptedModel.text("Bought."),
    );
    const result = await runToolLoop({ model, prompt, tools: [cartTool()] });
    expect(model.requests.slice(2).map(resultText)).toEqual([
      "Added apple. Total: 1",
      "Added pear. Total: 2",
      "Cart c42: apple, pear",
      "Checked out c42 for 10 EUR",
      "Cart c42: ",
    ]);
    expect(result.text).toBe("Bought.");
  });

  it("gives each loop its own cart", async () => {
    const cart = cartTool();
    const run = async (cartId: string, item: string) => {
      const model = ScriptedModel.of(
        ScriptedModel.toolCall("shopping_cart", { cart_id: cartId }),
        ScriptedModel.toolCall("add_item", { item }),
        ScriptedModel.toolCall("view_cart", {}),
        ScriptedModel.text("ok"),
      );
      await runToolLoop({ model, prompt, tools: [cart] });
      return resultText(model.requests[3]);
    };
    const [first, second] = await Promise.all([run("a", "apple"), run("b", "bread")]);
    expect(first).toBe("Cart a: apple");
    expect(second).toBe("Cart b: bread");
  });

  it("keeps the first cart when the guide is called with another cart id (names already offered)", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("shopping_cart", { cart_id: "c1" }),
      ScriptedModel.toolCall("add_item", { item: "tea" }),
      ScriptedModel.toolCall("shopping_cart", { cart_id: "c2" }),
      ScriptedModel.toolCall("view_cart", {}),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [cartTool()] });
    expect(resultText(model.requests[3])).toMatch(
      /^Use one of these tools directly:\n- add_item: Add item to cart c1/,
    );
    expect(resultText(model.requests[4])).toBe("Cart c1: tea");
  });
});
