// Answers are checked like the tool (or the form) checks them (issue 34, N12):
// a complete JSON Schema validator on the request's schema, plus the zod schema
// while the live process has it; after a resume elsewhere, a value that fails
// the zod parse asks again (the process waits, the problem on the request).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { domainType } from "../tool/type-token.js";
import { AgentPlatform } from "./agent-platform.js";
import { defineAgent } from "./define-agent.js";
import { WaitFor } from "./wait-for.js";

const Order = domainType("Order", z.object({ text: z.string() }));
const Reply = domainType("Reply", z.object({ text: z.string() }));

function agent(run: (context: { ai(): ReturnType<AgentPlatform["ai"]> }) => Promise<string>) {
  return defineAgent({
    name: "Clerk",
    description: "Asks",
    actions: [
      {
        name: "ask",
        input: Order,
        output: Reply,
        achievesGoal: { description: "Asked" },
        run: async (_order, context) => ({ text: await run(context) }),
      },
    ],
  });
}

const Address = z.object({
  city: z.string().max(20),
  zip: z
    .string()
    .regex(/^\d{4}$/)
    .refine((zip) => zip !== "0000", "0000 is not a zip code"),
});

const formAgent = () =>
  agent(async () => {
    const address = await WaitFor.formSubmission("Address", Address);
    return `${address.city} ${address.zip}`;
  });

const Even = z.object({ cents: z.number().int().max(5000) }).refine((input) => input.cents % 2 === 0, {
  message: "cents must be even",
  path: ["cents"],
});

function payAgent(runs: unknown[]) {
  const pay = Tool.requireApproval(
    Tool.fromFunction("pay", "Pays", Even, z.string(), (input) => {
      runs.push(input);
      return "paid";
    }),
  );
  return agent((context) => context.ai().withTools([pay]).generateText("pay"));
}

describe("platform.respond checks a form's values", () => {
  it("with the complete JSON Schema: maxLength and pattern, naming the field", async () => {
    const platform = AgentPlatform.create({ models: { main: new ScriptedModel([]) } });
    const process = await platform.runAgent(formAgent(), Order.create({ text: "x" }));
    const request = process.awaiting[0];
    const failure = await platform
      .respond(process.id, request?.id ?? "", { city: "x".repeat(100), zip: "12" })
      .catch((error: unknown) => error);
    expect(InvalidResponseError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/city: must NOT have more than 20 characters/);
    expect((failure as Error).message).toMatch(/zip: must match pattern/);
    expect(process.status).toBe("waiting");
    const done = await platform.respond(process.id, request?.id ?? "", { city: "Oslo", zip: "0150" });
    expect(done.result).toEqual({ text: "Oslo 0150" });
  });

  it("with the live zod schema: a refinement JSON Schema can't say is refused, and the process keeps waiting", async () => {
    const platform = AgentPlatform.create({ models: { main: new ScriptedModel([]) } });
    const process = await platform.runAgent(formAgent(), Order.create({ text: "x" }));
    const id = process.awaiting[0]?.id ?? "";
    await expect(platform.respond(process.id, id, { city: "Oslo", zip: "0000" })).rejects.toThrow(
      /zip: 0000 is not a zip code/,
    );
    expect(process.status).toBe("waiting");
  });

  it("resumed elsewhere (no live schema): a value failing the zod parse asks again, stating the problem", async () => {
    const platform = AgentPlatform.create({ models: { main: new ScriptedModel([]) } });
    const waiting = await platform.runAgent(formAgent(), Order.create({ text: "x" }));
    const checkpoint = JSON.parse(JSON.stringify(waiting.checkpoint()));
    const [request] = checkpoint.waiting.open;
    checkpoint.waiting = {
      ...checkpoint.waiting,
      open: [],
      answers: [[request.key, { city: "Oslo", zip: "0000" }]],
    };
    const other = AgentPlatform.create({ models: { main: new ScriptedModel([]) } });
    const again = await other.runAgent(formAgent(), undefined, { checkpoint });
    expect(again.status).toBe("waiting");
    expect(again.awaiting).toEqual([
      expect.objectContaining({ kind: "form", title: "Address", problem: "zip: 0000 is not a zip code" }),
    ]);
    const done = await other.respond(again.id, again.awaiting[0]?.id ?? "", { city: "Oslo", zip: "0150" });
    expect(done.result).toEqual({ text: "Oslo 0150" });
  });
});

describe("platform.respond checks edited approval arguments", () => {
  it("with the tool's own zod schema while the process is live", async () => {
    const runs: unknown[] = [];
    const model = new ScriptedModel([
      ScriptedModel.toolCall("pay", { cents: 10 }),
      ScriptedModel.text("done"),
    ]);
    const platform = AgentPlatform.create({ models: { main: model } });
    const process = await platform.runAgent(payAgent(runs), Order.create({ text: "x" }));
    const id = process.awaiting[0]?.id ?? "";
    await expect(platform.respond(process.id, id, { approved: true, input: { cents: 11 } })).rejects.toThrow(
      /cents: cents must be even/,
    );
    expect(process.status).toBe("waiting");
    const done = await platform.respond(process.id, id, { approved: true, input: { cents: 12 } });
    expect(done.status).toBe("completed");
    expect(runs).toEqual([{ cents: 12 }]);
  });

  it("resumed elsewhere: an edit failing the zod parse asks again (never a model-visible error), nothing ran", async () => {
    const runs: unknown[] = [];
    const steps = () => [ScriptedModel.toolCall("pay", { cents: 10 }), ScriptedModel.text("done")];
    const platform = AgentPlatform.create({ models: { main: new ScriptedModel(steps()) } });
    const waiting = await platform.runAgent(payAgent(runs), Order.create({ text: "x" }));
    const checkpoint = JSON.parse(JSON.stringify(waiting.checkpoint()));
    const [request] = checkpoint.waiting.open;
    const edited = {
      approved: true,
      input: { cents: 11 },
      toolName: request.toolName,
      digest: request.digest,
    };
    checkpoint.waiting = { ...checkpoint.waiting, open: [], answers: [[request.key, edited]] };
    // The resumed loop does not call the model for the stopped round: only the answer after it is scripted.
    const model = new ScriptedModel([ScriptedModel.text("done")]);
    const other = AgentPlatform.create({ models: { main: model } });
    const again = await other.runAgent(payAgent(runs), undefined, { checkpoint });
    expect(again.status).toBe("waiting");
    expect(again.awaiting).toEqual([
      expect.objectContaining({
        kind: "approval",
        toolName: "pay",
        problem: expect.stringMatching(/cents must be even/),
      }),
    ]);
    expect(runs).toEqual([]);
    const done = await other.respond(again.id, again.awaiting[0]?.id ?? "", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual([{ cents: 10 }]);
    expect(model.requests).toHaveLength(1);
  });
});
