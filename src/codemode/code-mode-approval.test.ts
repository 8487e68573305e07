import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deskAgent } from "../../test/support/desk-agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { CodeModeTool } from "./code-mode-tool.js";

/** get_order (free) and refund (needs approval), recording each run. */
function tools() {
  const lookups: number[] = [];
  const refunds: string[] = [];
  const getOrder = Tool.fromFunction(
    "get_order",
    "Looks up an order",
    z.object({ id: z.number().int() }),
    z.object({ id: z.number(), refund: z.number() }),
    async ({ id }) => {
      lookups.push(id);
      return { id, refund: id * 10 };
    },
  );
  const refund = Tool.requireApproval(
    Tool.fromFunction(
      "refund",
      "Refunds an order",
      z.object({ id: z.number().int(), cents: z.number().int() }),
      z.string(),
      async ({ id, cents }) => {
        refunds.push(`${id}:${cents}`);
        return `refunded ${cents} on ${id}`;
      },
    ),
    { message: "Refund this order?" },
  );
  return { getOrder, refund, lookups, refunds };
}

const PROGRAM = `const seen = [];
for (const id of [1, 2, 3]) seen.push(await tools.get_order({ id }));
const started = Date.now();
const r = Math.random();
let refunded;
try { refunded = await tools.refund({ id: 3, cents: seen[2].refund }); } catch (e) { refunded = "not refunded: " + e.message; }
const fourth = await tools.get_order({ id: 4 });
return { refunded, fourth: fourth.refund, clockMoved: Date.now() >= started, r: typeof r };`;

function setup() {
  const parts = tools();
  const code = CodeModeTool.of("run_code", "Order desk.", [parts.getOrder, parts.refund]);
  const model = new ScriptedModel([
    ScriptedModel.toolCall("run_code", { code: PROGRAM }, { id: "c1" }),
    ScriptedModel.text("Done."),
  ]);
  const { platform, start } = deskAgent({ model, tools: [code], ticket: "Refund order 3" });
  return { ...parts, model, platform, start };
}

describe("CodeModeTool with an approval-gated inner tool", () => {
  it("waits, and on approval replays the settled calls from its journal: no tool runs twice", async () => {
    const { platform, start, lookups, refunds, model } = setup();
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting).toEqual([
      expect.objectContaining({ kind: "approval", toolName: "refund", arguments: { id: 3, cents: 30 } }),
    ]);
    expect(lookups).toEqual([1, 2, 3]);
    expect(refunds).toEqual([]);
    const done = await platform.respond(waiting.id, "r1", { approved: true }, { respondent: "test" });
    expect(done.status).toBe("completed");
    expect(lookups).toEqual([1, 2, 3, 4]);
    expect(refunds).toEqual(["3:30"]);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: '{"refunded":"refunded 30 on 3","fourth":40,"clockMoved":true,"r":"number"}',
    });
  });

  it("denied: the program gets a catchable error with the person's reason, and goes on", async () => {
    const { platform, start, lookups, refunds, model } = setup();
    const waiting = await start();
    const done = await platform.respond(
      waiting.id,
      "r1",
      { approved: false, reason: "over budget" },
      { respondent: "test" },
    );
    expect(done.status).toBe("completed");
    expect(refunds).toEqual([]);
    expect(lookups).toEqual([1, 2, 3, 4]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value:
        '{"refunded":"not refunded: The user denied this call: over budget","fourth":40,"clockMoved":true,"r":"number"}',
    });
  });

  it("edited: the refund runs with the person's arguments, validated by the gate", async () => {
    const { platform, start, refunds } = setup();
    const waiting = await start();
    const done = await platform.respond(
      waiting.id,
      "r1",
      { approved: true, input: { id: 3, cents: 25 } },
      { respondent: "test" },
    );
    expect(done.status).toBe("completed");
    expect(refunds).toEqual(["3:25"]);
  });

  it("a program that waits twice resumes twice, each settled call run once", async () => {
    const { getOrder, refund, lookups, refunds } = tools();
    const code = CodeModeTool.of("run_code", "", [getOrder, refund]);
    const program = `const a = await tools.get_order({ id: 1 });
await tools.refund({ id: 1, cents: a.refund });
const b = await tools.get_order({ id: 2 });
await tools.refund({ id: 2, cents: b.refund });
return "both";`;
    const model = new ScriptedModel([
      ScriptedModel.toolCall("run_code", { code: program }, { id: "c1" }),
      ScriptedModel.text("Done."),
    ]);
    const { platform, start } = deskAgent({ model, tools: [code], name: "Twice", ticket: "Refund 1 and 2" });
    const first = await start();
    expect(first.awaiting).toEqual([expect.objectContaining({ id: "r1", arguments: { id: 1, cents: 10 } })]);
    const second = await platform.respond(first.id, "r1", { approved: true }, { respondent: "test" });
    expect(second.status).toBe("waiting");
    expect(second.awaiting).toEqual([expect.objectContaining({ id: "r2", arguments: { id: 2, cents: 20 } })]);
    expect({ lookups: [...lookups], refunds: [...refunds] }).toEqual({ lookups: [1, 2], refunds: ["1:10"] });
    const done = await platform.respond(first.id, "r2", { approved: true }, { respondent: "test" });
    expect(done.status).toBe("completed");
    expect({ lookups, refunds }).toEqual({ lookups: [1, 2], refunds: ["1:10", "2:20"] });
    expect(model.requests).toHaveLength(2);
  });

  it("outside an agent process, nobody can approve: the refund is not run and the program is told", async () => {
    const { getOrder, refund, refunds } = tools();
    const code = CodeModeTool.of("run_code", "", [getOrder, refund]);
    const result = await code.call(
      JSON.stringify({
        code: "try { await tools.refund({ id: 1, cents: 1 }); } catch (e) { return e.message; }",
      }),
    );
    expect(refunds).toEqual([]);
    expect(result.content).toMatch(
      /^Tool 'refund' failed: Tool 'refund' needs a person's approval, and nobody can be asked here/,
    );
  });
});
