// Agentic tools across a wait for a person: an approval-gated sub-tool that a
// playbook unlocked, or that a state machine reached by a transition, runs
// once with its input when approved after the wait (the unlock history and
// the machine's state survive it) and never when denied.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deskAgent } from "../../test/support/desk-agent.js";
import type { ToolInjectionContext } from "../loop/tool-injection-strategy.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStepInit } from "../testing/scripted-step.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { PlaybookTool } from "./playbook-tool.js";
import { StateMachineTool } from "./state-machine-tool.js";

const Order = domainType("Order", z.object({ id: z.string() }));

/** An approval-gated refund tool recording each run's input in `runs`. */
function refundTool(runs: string[]): Tool {
  return Tool.requireApproval(
    Tool.create(
      "issue_refund",
      "Refunds an order",
      InputSchema.of(Param.integer("cents", "The amount")),
      (input) => {
        runs.push(input);
        return ToolResult.text(`refunded ${input}`);
      },
    ),
  );
}

const lookupOrder = Tool.create("lookup_order", "Looks an order up", () =>
  ToolResult.withArtifact("order 7", Order.create({ id: "7" })),
);

/** A platform whose one action offers `tool` to the model; the outer model's first step calls it. */
function setup(tool: Tool, nested: ScriptedStepInit[]) {
  const model = new ScriptedModel([
    ScriptedModel.toolCall(tool.definition.name, {}, { id: "outer" }),
    ...nested,
    ScriptedModel.text("outer done"),
  ]);
  return deskAgent({ model, tools: [tool] });
}

/** The text of the latest tool result in the model's `request`. */
function lastResult(model: ScriptedModel, request: number): string {
  return JSON.stringify(model.requests[request]?.prompt.at(-1));
}

const refundCall = ScriptedModel.toolCall("issue_refund", { cents: 500 }, { id: "r" });

describe("PlaybookTool across an approval", () => {
  const playbook = (runs: string[]) =>
    PlaybookTool.create("refunds", "Refund orders")
      .withTools(lookupOrder)
      .withTool(refundTool(runs))
      .unlockedBy("lookup_order");
  const nested = [
    ScriptedModel.toolCall("lookup_order", {}, { id: "l" }),
    refundCall,
    ScriptedModel.text("refund done"),
  ];

  it("approved: the tool unlocked before the wait runs once with its input", async () => {
    const runs: string[] = [];
    const { model, platform, start } = setup(playbook(runs), nested);
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting[0]).toMatchObject({ toolName: "issue_refund", arguments: { cents: 500 } });
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ text: "outer done" });
    expect(runs).toEqual(['{"cents":500}']);
    expect(lastResult(model, 3)).toContain('refunded {\\"cents\\":500}');
    expect(lastResult(model, 3)).not.toContain("not yet available");
    expect(model.requests).toHaveLength(5);
  });

  it("denied: the tool never runs and the nested model is told", async () => {
    const runs: string[] = [];
    const { model, platform, start } = setup(playbook(runs), nested);
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: false, reason: "no refunds today" });
    expect(done.status).toBe("completed");
    expect(runs).toEqual([]);
    expect(lastResult(model, 3)).toContain("no refunds today");
  });

  it("keeps artifacts for unlockedByArtifact across the wait", async () => {
    const runs: string[] = [];
    const tool = PlaybookTool.create("refunds", "Refund orders")
      .withTools(lookupOrder)
      .withTool(refundTool(runs))
      .unlockedByArtifact(Order);
    const { platform, start } = setup(tool, nested);
    const waiting = await start();
    await platform.respond(waiting.id, "r1", { approved: true });
    expect(runs).toEqual(['{"cents":500}']);
  });

  it("a facade's inner tool called before the wait still unlocks after it", async () => {
    const runs: string[] = [];
    const orders = UnfoldingTool.of("orders", "Order tools", [lookupOrder]);
    const tool = PlaybookTool.create("refunds", "Refund orders")
      .withTools(orders)
      .withTool(refundTool(runs))
      .unlockedBy("lookup_order");
    const { platform, start } = setup(tool, [ScriptedModel.toolCall("orders", {}, { id: "o" }), ...nested]);
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"cents":500}']);
  });
});

describe("PlaybookTool: only a call that returned counts for unlockedBy", () => {
  const boom = (name: string) =>
    Tool.create(name, `The ${name} tool`, () => {
      throw new Error("kaput");
    });
  const analyze = Tool.create("analyze", "Analyzes", () => ToolResult.text("analyze done"));

  it("a facade's inner tool that threw does not unlock, like a direct one", async () => {
    const tool = PlaybookTool.create("pb", "PB")
      .withTools(UnfoldingTool.of("f", "F", [boom("boom")]), boom("direct_boom"))
      .withTool(analyze)
      .unlockedBy("boom")
      .withTool(analyze.withName("format"))
      .unlockedBy("direct_boom");
    const {
      model,
      platform: _,
      start,
    } = setup(tool, [
      ScriptedModel.toolCall("f", {}),
      ScriptedModel.toolCall("boom", {}),
      ScriptedModel.toolCall("analyze", {}),
      ScriptedModel.toolCall("direct_boom", {}),
      ScriptedModel.toolCall("format", {}),
      ScriptedModel.text("inner done"),
    ]);
    const done = await start();
    expect(done.status).toBe("completed");
    expect(lastResult(model, 3)).toContain("WARNING: Tool 'boom' failed with exception: kaput");
    expect(lastResult(model, 4)).toContain("This tool is not yet available. You must first use: boom");
    expect(lastResult(model, 5)).toContain("WARNING: Tool 'direct_boom' failed with exception: kaput");
    expect(lastResult(model, 6)).toContain("This tool is not yet available. You must first use: direct_boom");
  });

  it("a facade's inner tool that timed out does not unlock", async () => {
    // It returns once aborted, after its time ran out: too late to count.
    const slow = Tool.create(
      "slow",
      "Slow",
      ToolMetadata.create({ toolTimeoutMs: 20 }),
      (_input, _context, options) =>
        new Promise<ToolResult>((resolve) => {
          options?.signal?.addEventListener("abort", () => resolve(ToolResult.text("too late")));
        }),
    );
    const tool = PlaybookTool.create("pb", "PB")
      .withTools(UnfoldingTool.of("f", "F", [slow]))
      .withTool(analyze)
      .unlockedBy("slow");
    const { model, start } = setup(tool, [
      ScriptedModel.toolCall("f", {}),
      ScriptedModel.toolCall("slow", {}),
      ScriptedModel.toolCall("analyze", {}),
      ScriptedModel.text("inner done"),
    ]);
    const done = await start();
    expect(done.status).toBe("completed");
    expect(lastResult(model, 3)).toContain("Error: Tool execution timed out");
    expect(lastResult(model, 4)).toContain("This tool is not yet available. You must first use: slow");
  });
});

describe("StateMachineTool across an approval", () => {
  const machine = (runs: string[]) =>
    StateMachineTool.create("orders", "Process orders", ["DRAFT", "CONFIRMED"])
      .withInitialState("DRAFT")
      .inState("DRAFT")
      .withTool(Tool.create("confirm", "Confirms the order", () => ToolResult.text("confirmed")))
      .transitionsTo("CONFIRMED")
      .inState("CONFIRMED")
      .withTool(refundTool(runs))
      .build();
  const nested = [
    ScriptedModel.toolCall("confirm", {}, { id: "c" }),
    refundCall,
    ScriptedModel.text("refund done"),
  ];

  it("approved: the tool of the state reached before the wait runs once with its input", async () => {
    const runs: string[] = [];
    const { model, platform, start } = setup(machine(runs), nested);
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"cents":500}']);
    expect(lastResult(model, 3)).not.toContain("not available in the current state");
  });

  it("denied: the tool never runs", async () => {
    const runs: string[] = [];
    const { model, platform, start } = setup(machine(runs), nested);
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: false, reason: "stop" });
    expect(done.status).toBe("completed");
    expect(runs).toEqual([]);
    expect(lastResult(model, 3)).toContain("stop");
  });

  it("a tool of the initial state refuses after the wait: the machine stays where it moved", async () => {
    const runs: string[] = [];
    const { model, platform, start } = setup(machine(runs), [
      ScriptedModel.toolCall("confirm", {}, { id: "c" }),
      refundCall,
      ScriptedModel.toolCall("confirm", {}, { id: "c2" }),
      ScriptedModel.text("refund done"),
    ]);
    const waiting = await start();
    await platform.respond(waiting.id, "r1", { approved: true });
    expect(lastResult(model, 4)).toContain(
      "This tool is not available in the current state (CONFIRMED). It is only available in state: DRAFT",
    );
  });
});

describe("agentic tools waiting one after the other", () => {
  it("a second agentic tool that waits after a first one that waited resumes its own nested loop", async () => {
    const runs: string[] = [];
    const first = PlaybookTool.create("first", "First")
      .withTools(lookupOrder)
      .withTool(refundTool(runs))
      .unlockedBy("lookup_order");
    const second = StateMachineTool.create("second", "Second", ["DRAFT", "CONFIRMED"])
      .withInitialState("DRAFT")
      .inState("DRAFT")
      .withTool(Tool.create("confirm", "Confirms", () => ToolResult.text("confirmed")))
      .transitionsTo("CONFIRMED")
      .inState("CONFIRMED")
      .withTool(refundTool(runs).withName("refund_confirmed"))
      .build();
    const model = new ScriptedModel([
      ScriptedModel.toolCall("first", {}, { id: "p" }),
      ScriptedModel.toolCall("lookup_order", {}, { id: "l" }),
      ScriptedModel.toolCall("issue_refund", { cents: 1 }, { id: "r" }),
      ScriptedModel.text("first done"),
      ScriptedModel.toolCall("second", {}, { id: "s" }),
      ScriptedModel.toolCall("confirm", {}, { id: "c" }),
      ScriptedModel.toolCall("refund_confirmed", { cents: 2 }, { id: "r2" }),
      ScriptedModel.text("second done"),
      ScriptedModel.text("outer done"),
    ]);
    const { platform, start } = deskAgent({ model, tools: [first, second], ticket: "Refund" });
    const waiting = await start();
    const again = await platform.respond(waiting.id, "r1", { approved: true });
    expect(again.status).toBe("waiting");
    expect(again.awaiting[0]).toMatchObject({ toolName: "refund_confirmed" });
    const done = await platform.respond(again.id, "r2", { approved: true });
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ text: "outer done" });
    expect(runs).toEqual(['{"cents":1}', '{"cents":2}']);
    expect(lastResult(model, 8)).toContain("second done");
  });
});

describe("nested facades across an approval", () => {
  it("inside a playbook, a facade unfolded inside a facade before the wait offers its tool again", async () => {
    const runs: string[] = [];
    const inner = UnfoldingTool.of("payments", "Payment tools", [refundTool(runs)]);
    const outer = UnfoldingTool.of("billing", "Billing tools", [inner]);
    const tool = PlaybookTool.create("refunds", "Refund orders").withTools(outer);
    const { model, platform, start } = setup(tool, [
      ScriptedModel.toolCall("billing", {}, { id: "b" }),
      ScriptedModel.toolCall("payments", {}, { id: "p" }),
      refundCall,
      ScriptedModel.text("refund done"),
    ]);
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"cents":500}']);
    expect(model.requests[4]?.toolNames).toEqual(model.requests[3]?.toolNames);
  });

  it("inside a state machine, the nested facade's tool stays bound to its state after the wait", async () => {
    const runs: string[] = [];
    const inner = UnfoldingTool.of("payments", "Payment tools", [refundTool(runs)]);
    const tool = StateMachineTool.create("orders", "Orders", ["DRAFT", "CONFIRMED"])
      .withInitialState("DRAFT")
      .inState("DRAFT")
      .withTool(UnfoldingTool.of("billing", "Billing tools", [inner]))
      .withTool(Tool.create("confirm", "Confirms", () => ToolResult.text("confirmed")))
      .transitionsTo("CONFIRMED")
      .build();
    const { model, platform, start } = setup(tool, [
      ScriptedModel.toolCall("billing", {}, { id: "b" }),
      ScriptedModel.toolCall("payments", {}, { id: "p" }),
      refundCall,
      ScriptedModel.toolCall("confirm", {}, { id: "c" }),
      ScriptedModel.toolCall("issue_refund", { cents: 9 }, { id: "r2" }),
      ScriptedModel.text("machine done"),
    ]);
    const waiting = await start();
    const again = await platform.respond(waiting.id, "r1", { approved: true });
    expect(runs).toEqual(['{"cents":500}']);
    const done = await platform.respond(again.id, "r2", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"cents":500}']);
    expect(lastResult(model, 6)).toContain(
      "This tool is not available in the current state (CONFIRMED). It is only available in state: DRAFT",
    );
  });
});

describe("an agentic tool's artifacts across an approval", () => {
  it("its result carries the artifacts its tools returned before the wait too", async () => {
    const runs: string[] = [];
    const tool = PlaybookTool.create("refunds", "Refund orders")
      .withTools(lookupOrder)
      .withTool(refundTool(runs))
      .unlockedBy("lookup_order");
    const model = new ScriptedModel([
      ScriptedModel.toolCall("refunds", {}, { id: "outer" }),
      ScriptedModel.toolCall("lookup_order", {}, { id: "l" }),
      refundCall,
      ScriptedModel.text("refund done"),
      ScriptedModel.text("outer done"),
    ]);
    const artifacts: unknown[] = [];
    const { platform, start } = deskAgent({
      model,
      tools: [tool],
      ticket: "Refund",
      configure: (runner) =>
        runner.withInjectionStrategy({
          evaluate: ({ lastToolCall: { result } }: ToolInjectionContext) => {
            if (result.kind === "artifact") artifacts.push(result.artifact);
            return undefined;
          },
        }),
    });
    const waiting = await start();
    await platform.respond(waiting.id, "r1", { approved: true });
    expect(runs).toEqual(['{"cents":500}']);
    expect(artifacts).toEqual([{ id: "7" }]);
    expect(Order.is(artifacts[0])).toBe(true);
  });
});
