import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { runToolLoop } from "./tool-loop.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

const Order = z.object({
  quantity: z.number().int(),
  price: z.number(),
  express: z.boolean(),
  note: z.string(),
  address: z.object({ floor: z.number().int(), zip: z.string() }).optional(),
  sizes: z.array(z.number()).optional(),
  discount: z.number().nullable().optional(),
});

function orderTool(received: unknown[]) {
  return Tool.fromFunction("place_order", "Places an order", Order, z.string(), (order) => {
    received.push(order);
    return "placed";
  });
}

/** Runs one call of `place_order` with `args`; returns what the tool received and what the model was told. */
async function callWith(args: Record<string, unknown>) {
  const received: unknown[] = [];
  const model = ScriptedModel.of(ScriptedModel.toolCall("place_order", args), ScriptedModel.text("done"));
  await runToolLoop({ model, prompt, tools: [orderTool(received)] });
  return { received, told: model.requests[1]?.toolResults[0]?.output };
}

describe("numbers and booleans sent as strings", () => {
  it("are taken as the number, integer or boolean the schema asks for, at any depth", async () => {
    const { received, told } = await callWith({
      quantity: "5",
      price: "-2.5e1",
      express: "true",
      note: "7",
      address: { floor: "3", zip: "01234" },
      sizes: ["1", 2, "3.5"],
      discount: "0.1",
    });
    expect(told).toEqual({ type: "text", value: "placed" });
    expect(received).toEqual([
      {
        quantity: 5,
        price: -25,
        express: true,
        note: "7",
        address: { floor: 3, zip: "01234" },
        sizes: [1, 2, 3.5],
        discount: 0.1,
      },
    ]);
  });

  it("leaves a string that is not exactly a number to validation, answered in-band", async () => {
    for (const [field, value] of [
      ["quantity", "5.5"],
      ["quantity", "five"],
      ["price", " 5"],
      ["price", "0x10"],
      ["express", "yes"],
    ] as const) {
      const { received, told } = await callWith({
        quantity: 1,
        price: 1,
        express: false,
        note: "",
        [field]: value,
      });
      expect(received).toEqual([]);
      expect(told).toMatchObject({
        type: "error-text",
        value: expect.stringContaining(`field '${field}' must be`),
      });
    }
  });

  it("passes the raw arguments unchanged when nothing needed coercing", async () => {
    const seen: string[] = [];
    const tool = Tool.create("raw", "Raw", Tool.InputSchema.of(Tool.Parameter.integer("n", "N")), (input) => {
      seen.push(input);
      return Tool.Result.text("ok");
    });
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("raw", '{ "n" : 4 }'),
      ScriptedModel.toolCall("raw", '{"n":"4"}'),
      ScriptedModel.text("done"),
    );
    await runToolLoop({ model, prompt, tools: [tool] });
    expect(seen).toEqual(['{ "n" : 4 }', '{"n":4}']);
  });
});
