import { describe, expect, it } from "vitest";
import { deskAgent, deskDefinition, Ticket } from "../../test/support/desk-agent.js";
import { ApprovalUnavailableError } from "../errors/approval-unavailable-error.js";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import type { ToolApproval } from "../tool/tool-approval.js";
import { ToolResult } from "../tool/tool-result.js";
import { AgentPlatform } from "./agent-platform.js";
import type { AgentProcessEvent } from "./process-event.js";
import { ProcessOptions } from "./process-options.js";

/** A refund tool that counts its runs, needing approval per `approval`. */
function refundTool(runs: string[], approval: ToolApproval = {}): Tool {
  const tool = Tool.create(
    "refund",
    "Refunds an order",
    InputSchema.of(Param.string("orderId", "The order"), Param.integer("cents", "The amount")),
    async (input) => {
      runs.push(input);
      return ToolResult.text(`refunded ${input}`);
    },
  );
  return Tool.requireApproval(tool, { message: "Refund this order?", ...approval });
}

/** An agent whose one action asks the model (with `tools`) to answer the ticket. */
const desk = (tools: Tool[]) => deskDefinition({ tools });

function setup(model: ScriptedModel, approval?: ToolApproval) {
  const runs: string[] = [];
  const events: AgentProcessEvent[] = [];
  const { platform, start } = deskAgent({ model, tools: [refundTool(runs, approval)] });
  const options = { processOptions: new ProcessOptions({ listeners: [(event) => events.push(event)] }) };
  return { platform, runs, events, start: () => start(options) };
}

const refundCall = ScriptedModel.toolCall("refund", { orderId: "7", cents: 500 }, { id: "c1" });

describe("Tool.requireApproval in an agent process", () => {
  it("stops before the tool runs and waits with the request", async () => {
    const model = new ScriptedModel([refundCall, ScriptedModel.text("Done")]);
    const { runs, start } = setup(model);
    const process = await start();
    expect(process.status).toBe("waiting");
    expect(runs).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(process.awaiting).toEqual([
      expect.objectContaining({
        id: "r1",
        kind: "approval",
        toolName: "refund",
        arguments: { orderId: "7", cents: 500 },
        message: "Refund this order?",
        what: 'approve refund({"orderId":"7","cents":500})',
      }),
    ]);
    expect(process.awaiting[0]?.since).toBeLessThanOrEqual(Date.now());
    expect(process.statusReason).toContain("r1 approve refund");
    expect(process.finished).toBe(false);
  });

  it("approved: runs a tool a facade unfolded before the wait, and offers it again after", async () => {
    const runs: string[] = [];
    const billing = UnfoldingTool.of("billing", "Billing tools", [refundTool(runs)]);
    const model = new ScriptedModel([
      ScriptedModel.toolCall("billing", {}, { id: "u1" }),
      refundCall,
      ScriptedModel.text("Refunded."),
    ]);
    const platform = AgentPlatform.create({ models: { main: model } });
    const waiting = await platform.runAgent(desk([billing]), Ticket.create({ text: "Refund order 7" }));
    expect(waiting.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { approved: true }, { respondent: "test" });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"orderId":"7","cents":500}']);
    expect(model.requests[2]?.toolNames).toContain("refund");
    // The resumed loop offers what the stopped one did: the facade's context tool included.
    expect(model.requests[1]?.toolNames).toEqual(["billing", "refund", "billing_context"]);
    expect(model.requests[2]?.toolNames).toEqual(model.requests[1]?.toolNames);
  });

  it("approved: runs the tool once and goes on without repeating an LLM call", async () => {
    const model = new ScriptedModel([refundCall, ScriptedModel.text("Refunded.")]);
    const { platform, runs, start, events } = setup(model);
    const waiting = await start();
    expect(await platform.process(waiting.id)).toBe(waiting);
    const done = await platform.respond(waiting.id, "r1", { approved: true }, { respondent: "test" });
    expect(done).toBe(waiting);
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ text: "Refunded." });
    expect(runs).toEqual(['{"orderId":"7","cents":500}']);
    expect(model.requests).toHaveLength(2);
    // The second request continues the first: the same messages, plus the call and its result.
    expect(model.requests[1]?.prompt.slice(0, model.requests[0]?.prompt.length)).toEqual(
      model.requests[0]?.prompt,
    );
    expect(model.requests[1]?.toolResults).toEqual([
      expect.objectContaining({
        toolCallId: "c1",
        output: { type: "text", value: 'refunded {"orderId":"7","cents":500}' },
      }),
    ]);
    expect(done.history.map((invocation) => invocation.outcome)).toEqual(["succeeded"]);
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === "process-started")).toHaveLength(1);
    expect(types).toContain("awaiting-response");
    expect(events.find((event) => event.type === "response-received")).toMatchObject({
      requestId: "r1",
      kind: "approval",
      approved: true,
      respondent: "test",
    });
    expect(events.find((event) => event.type === "action-end")).toMatchObject({ outcome: "waiting" });
  });

  it("denied: the model is told in-band and the loop goes on", async () => {
    const model = new ScriptedModel([refundCall, ScriptedModel.text("Not refunded.")]);
    const { platform, runs, start } = setup(model);
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: false, reason: "over the limit" });
    expect(done.status).toBe("completed");
    expect(runs).toEqual([]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: "The user denied this call: over the limit",
    });
  });

  it("edited: runs with the person's arguments, checked against the tool's schema", async () => {
    const model = new ScriptedModel([refundCall, ScriptedModel.text("Refunded less.")]);
    const { platform, runs, start } = setup(model);
    const waiting = await start();
    await expect(
      platform.respond(waiting.id, "r1", { approved: true, input: { orderId: "7", cents: "lots" } }),
    ).rejects.toSatisfy(
      (error) => InvalidResponseError.isInstance(error) && /cents/.test((error as Error).message),
    );
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting.map((request) => request.id)).toEqual(["r1"]);
    const done = await platform.respond(waiting.id, "r1", {
      approved: true,
      input: { orderId: "7", cents: 200 },
    });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"orderId":"7","cents":200}']);
  });

  it("rejects bad answers to the responder and keeps waiting", async () => {
    const model = new ScriptedModel([refundCall, ScriptedModel.text("ok")]);
    const { platform, start } = setup(model);
    const waiting = await start();
    await expect(platform.respond(waiting.id, "r9", { approved: true })).rejects.toThrow(
      /no open request 'r9' \(open: \[r1\]\)/,
    );
    await expect(platform.respond(waiting.id, "r1", { yes: 1 })).rejects.toThrow(/'approved': true or false/);
    await expect(platform.respond("nope", "r1", { approved: true })).rejects.toThrow(
      /No process with id nope/,
    );
    expect(waiting.status).toBe("waiting");
    await platform.respond(waiting.id, "r1", { approved: true });
    await expect(platform.respond(waiting.id, "r1", { approved: true })).rejects.toThrow(/is not waiting/);
  });

  it("asks per call when `when` says so", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "refund", args: { orderId: "1", cents: 100 }, id: "small" },
        { name: "refund", args: { orderId: "2", cents: 90000 }, id: "big" },
      ]),
      ScriptedModel.text("Both handled."),
    ]);
    const { platform, runs, start } = setup(model, {
      when: (input) => (input as { cents: number }).cents > 10000,
    });
    const waiting = await start();
    // The small refund ran before the big one stopped the round.
    expect(runs).toEqual(['{"orderId":"1","cents":100}']);
    expect(waiting.awaiting.map((request) => request.kind === "approval" && request.arguments)).toEqual([
      { orderId: "2", cents: 90000 },
    ]);
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"orderId":"1","cents":100}', '{"orderId":"2","cents":90000}']);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.toolResults.map((result) => result.toolCallId)).toEqual(["small", "big"]);
  });

  it("asks for every call of a round at once and resumes when all are answered", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "refund", args: { orderId: "1", cents: 1 }, id: "a" },
        { name: "refund", args: { orderId: "2", cents: 2 }, id: "b" },
      ]),
      ScriptedModel.text("ok"),
    ]);
    const { platform, runs, start } = setup(model);
    const waiting = await start();
    expect(waiting.awaiting.map((request) => request.id)).toEqual(["r1", "r2"]);
    const still = await platform.respond(waiting.id, "r2", { approved: false, reason: "no" });
    expect(still.status).toBe("waiting");
    expect(still.awaiting.map((request) => request.id)).toEqual(["r1"]);
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"orderId":"1","cents":1}']);
    expect(model.requests[1]?.toolResults.map((result) => result.output)).toEqual([
      { type: "text", value: 'refunded {"orderId":"1","cents":1}' },
      { type: "error-text", value: "The user denied this call: no" },
    ]);
  });

  it("asks for the approvals of all later calls of the round with the first", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "refund", args: { orderId: "1", cents: 1 }, id: "a" },
        { name: "refund", args: { orderId: "2", cents: 2 }, id: "b" },
        { name: "refund", args: { orderId: "3", cents: 3 }, id: "c" },
      ]),
      ScriptedModel.text("ok"),
    ]);
    const { start } = setup(model);
    const waiting = await start();
    expect(waiting.awaiting.map((request) => request.kind === "approval" && request.arguments)).toEqual([
      { orderId: "1", cents: 1 },
      { orderId: "2", cents: 2 },
      { orderId: "3", cents: 3 },
    ]);
  });

  it("asks only for the later calls that need approval: not plain, unknown or exempted ones", async () => {
    const runs: string[] = [];
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "refund", args: { orderId: "1", cents: 90000 }, id: "big" },
        { name: "lookup", args: {}, id: "plain" },
        { name: "nope", args: {}, id: "unknown" },
        { name: "refund", args: { orderId: "2", cents: 100 }, id: "small" },
      ]),
      ScriptedModel.text("ok"),
    ]);
    const lookup = Tool.create("lookup", "Looks up an order", () => ToolResult.text("order found"));
    const refund = refundTool(runs, { when: (input) => (input as { cents: number }).cents > 10000 });
    const platform = AgentPlatform.create({ models: { main: model } });
    const waiting = await platform.runAgent(desk([refund, lookup]), Ticket.create({ text: "Refund" }));
    expect(waiting.awaiting.map((request) => request.kind === "approval" && request.arguments)).toEqual([
      { orderId: "1", cents: 90000 },
    ]);
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"orderId":"1","cents":90000}', '{"orderId":"2","cents":100}']);
    expect(model.requests[1]?.toolResults.map((result) => result.toolCallId)).toEqual([
      "big",
      "plain",
      "unknown",
      "small",
    ]);
  });

  it("denies with reason 'timed out' when nobody answers in time", async () => {
    const model = new ScriptedModel([refundCall, ScriptedModel.text("Gave up.")]);
    const { platform, runs, start, events } = setup(model, { timeoutMs: 30 });
    const waiting = await start();
    expect(waiting.awaiting[0]?.deadline).toBeGreaterThan(waiting.awaiting[0]?.since ?? 0);
    // The deadline passes after 30 ms; the resumed run then needs a moment (more on a busy machine).
    for (let waited = 0; waiting.status !== "completed" && waited < 10_000; waited += 25) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(waiting.status).toBe("completed");
    expect(runs).toEqual([]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: "The user denied this call: timed out",
    });
    expect(events.find((event) => event.type === "response-received")).toMatchObject({
      respondent: "timeout",
      approved: false,
    });
    await platform.close();
  });

  it("waits again when the model asks for another approval after the first", async () => {
    const model = new ScriptedModel([
      refundCall,
      ScriptedModel.toolCall("refund", { orderId: "8", cents: 1 }, { id: "c2" }),
      ScriptedModel.text("Two refunds."),
    ]);
    const { platform, runs, start } = setup(model);
    const waiting = await start();
    const again = await platform.respond(waiting.id, "r1", { approved: true });
    expect(again.status).toBe("waiting");
    expect(
      again.awaiting.map((request) => [request.id, request.kind === "approval" && request.arguments]),
    ).toEqual([["r2", { orderId: "8", cents: 1 }]]);
    const done = await platform.respond(waiting.id, "r2", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toHaveLength(2);
    expect(model.requests).toHaveLength(3);
  });

  it("keeps the wait in the checkpoint, and a new process continues from it", async () => {
    const model = new ScriptedModel([refundCall, ScriptedModel.text("Refunded.")]);
    const { runs, start } = setup(model);
    const waiting = await start();
    const checkpoint = JSON.parse(JSON.stringify(waiting.checkpoint()));
    expect(checkpoint.status).toBe("waiting");
    expect(checkpoint.waiting.open).toHaveLength(1);
    expect(checkpoint.waiting.journal[0].kind).toBe("loop-suspended");
    // Answered in the checkpoint, then continued by another platform (as a worker would).
    // An answer is bound to the call it was given for: the tool's name and the digest of its arguments.
    const [request] = checkpoint.waiting.open;
    checkpoint.waiting = {
      ...checkpoint.waiting,
      open: [],
      answers: [[request.key, { approved: true, toolName: request.toolName, digest: request.digest }]],
    };
    const other = AgentPlatform.create({ models: { main: model } });
    const done = await other.runAgent(desk([refundTool(runs)]), undefined, { checkpoint });
    expect(done.id).toBe(waiting.id);
    expect(done.status).toBe("completed");
    expect(runs).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
    expect(done.checkpoint().waiting).toBeUndefined();
  });
});

describe("Tool.requireApproval outside an agent process", () => {
  it("throws an ApprovalUnavailableError saying how to get approvals, and the tool never runs", async () => {
    const runs: string[] = [];
    const model = new ScriptedModel([refundCall, ScriptedModel.text("Could not.")]);
    const platform = AgentPlatform.create({ models: { main: model } });
    const failure = await platform
      .ai()
      .withTools([refundTool(runs)])
      .generateText("refund")
      .catch((error: unknown) => error);
    expect(ApprovalUnavailableError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/inside an agent process.*onApproval.*withApproval/s);
    expect(runs).toEqual([]);
  });

  it("asks the platform's onApproval callback with the validated input, and runs what it approved", async () => {
    const runs: string[] = [];
    const asked: unknown[] = [];
    const model = new ScriptedModel([refundCall, ScriptedModel.text("Refunded.")]);
    const platform = AgentPlatform.create({
      models: { main: model },
      onApproval: (question) => {
        asked.push(question);
        return { approved: true, input: { orderId: "7", cents: "250" } };
      },
    });
    await platform
      .ai()
      .withTools([refundTool(runs)])
      .generateText("refund");
    expect(asked).toEqual([
      { toolName: "refund", input: { orderId: "7", cents: 500 }, message: "Refund this order?" },
    ]);
    // The edit is validated like the model's arguments: the string amount is coerced to the integer the schema asks for.
    expect(runs).toEqual(['{"orderId":"7","cents":250}']);
  });

  it("prefers the runner's withApproval callback to the platform's", async () => {
    const runs: string[] = [];
    const model = new ScriptedModel([refundCall, ScriptedModel.text("No.")]);
    const platform = AgentPlatform.create({
      models: { main: model },
      onApproval: () => ({ approved: true }),
    });
    await platform
      .ai()
      .withTools([refundTool(runs)])
      .withApproval(() => ({ approved: false, reason: "not today" }))
      .generateText("refund");
    expect(runs).toEqual([]);
    expect(model.requests[1]?.toolResults[0]?.output).toMatchObject({
      value: "The user denied this call: not today",
    });
  });

  it("refuses a bad timeout", () => {
    expect(() => refundTool([], { timeoutMs: -1 })).toThrow(/positive number of milliseconds/);
  });
});
