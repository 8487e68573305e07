// Tools found by a search (UnfoldingTool.searchable) or unfolded by a facade
// before a wait for a person: after the approval the found tool runs once with
// its input, at the top level, inside a playbook and inside a state machine
// (still bound to its state), and never when denied.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PlaybookTool } from "../agentic/playbook-tool.js";
import { StateMachineTool } from "../agentic/state-machine-tool.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { defineAgent } from "../platform/define-agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStepInit } from "../testing/scripted-step.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { UnfoldingTool } from "./unfolding-tool.js";

const Ticket = domainType("Ticket", z.object({ text: z.string() }));
const Reply = domainType("Reply", z.object({ text: z.string() }));

/** An approval-gated refund tool recording each run's input in `runs`. */
function refundTool(runs: string[]): Tool {
  return Tool.requireApproval(
    Tool.create(
      "issue_refund",
      "Issue a refund for an order",
      InputSchema.of(Param.integer("cents", "The amount")),
      (input) => {
        runs.push(input);
        return ToolResult.text(`refunded ${input}`);
      },
    ),
  );
}

const others = [
  Tool.create("send_invoice", "Send an invoice by email", () => ToolResult.text("sent")),
  Tool.create("list_orders", "List the customer's orders", () => ToolResult.text("orders")),
];

/** A platform whose one action offers `tools`; the model follows `steps`. */
function setup(tools: Tool[], steps: ScriptedStepInit[]) {
  const model = new ScriptedModel([...steps, ScriptedModel.text("Done")]);
  const platform = AgentPlatform.create({ models: { main: model } });
  const agent = defineAgent({
    name: "Desk",
    description: "Answers tickets",
    actions: [
      {
        name: "answer",
        input: Ticket,
        output: Reply,
        achievesGoal: { description: "Answered" },
        run: async (ticket, context) => ({
          text: await context.ai().withTools(tools).generateText(ticket.text),
        }),
      },
    ],
  });
  return {
    model,
    platform,
    start: () => platform.runAgent(agent, Ticket.create({ text: "Refund order 7" })),
  };
}

function lastResult(model: ScriptedModel, request: number): string {
  return JSON.stringify(model.requests[request]?.prompt.at(-1));
}

const search = ScriptedModel.toolCall(
  "find_billing_tools",
  { query: "refund an order", limit: 1 },
  { id: "s" },
);
const refund = ScriptedModel.toolCall("issue_refund", { cents: 500 }, { id: "r" });

describe("a searched tool across an approval", () => {
  const finder = (runs: string[]) =>
    UnfoldingTool.searchable("find_billing_tools", "Find billing tools", [...others, refundTool(runs)]);

  it("approved at the top level: runs once with its input, offered again after", async () => {
    const runs: string[] = [];
    const { model, platform, start } = setup([finder(runs)], [search, refund]);
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"cents":500}']);
    expect(model.requests[2]?.toolNames).toEqual(["find_billing_tools", "issue_refund"]);
  });

  it("denied at the top level: never runs", async () => {
    const runs: string[] = [];
    const { model, platform, start } = setup([finder(runs)], [search, refund]);
    const waiting = await start();
    await platform.respond(waiting.id, "r1", { approved: false, reason: "no" });
    expect(runs).toEqual([]);
    expect(lastResult(model, 2)).not.toContain("does not exist");
  });

  it("approved inside a playbook: the found tool is offered again and runs once", async () => {
    const runs: string[] = [];
    const playbook = PlaybookTool.create("billing", "Billing work").withTools(finder(runs));
    const { model, platform, start } = setup(
      [playbook],
      [ScriptedModel.toolCall("billing", {}, { id: "p" }), search, refund, ScriptedModel.text("billed")],
    );
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(['{"cents":500}']);
    expect(lastResult(model, 3)).not.toContain("does not exist");
    expect(model.requests[3]?.toolNames).toEqual(model.requests[2]?.toolNames);
  });
});

describe("a facade's or search's tools in a state machine across an approval", () => {
  const confirm = Tool.create("confirm", "Confirms the order", () => ToolResult.text("confirmed"));
  const machine = (draftTool: Tool) =>
    StateMachineTool.create("orders", "Process orders", ["DRAFT", "CONFIRMED"])
      .withInitialState("DRAFT")
      .inState("DRAFT")
      .withTool(draftTool)
      .withTool(confirm)
      .transitionsTo("CONFIRMED")
      .build();

  it.each([
    [
      "facade",
      (runs: string[]) => UnfoldingTool.of("billing", "Billing tools", [...others, refundTool(runs)]),
      ScriptedModel.toolCall("billing", {}, { id: "u" }),
    ],
    [
      "search",
      (runs: string[]) =>
        UnfoldingTool.searchable("find_billing_tools", "Find billing tools", [...others, refundTool(runs)]),
      search,
    ],
  ])(
    "%s: runs once approved in its state, and stays bound to it after the wait",
    async (_kind, make, unfold) => {
      const runs: string[] = [];
      const { model, platform, start } = setup(
        [machine(make(runs))],
        [
          ScriptedModel.toolCall("orders", {}, { id: "m" }),
          unfold,
          refund,
          ScriptedModel.toolCall("confirm", {}, { id: "c" }),
          ScriptedModel.toolCall("issue_refund", { cents: 9 }, { id: "r2" }),
          ScriptedModel.text("machine done"),
        ],
      );
      const waiting = await start();
      expect(waiting.status).toBe("waiting");
      const again = await platform.respond(waiting.id, "r1", { approved: true });
      expect(runs).toEqual(['{"cents":500}']);
      expect(lastResult(model, 3)).toContain('refunded {\\"cents\\":500}');
      expect(lastResult(model, 4)).toContain("confirmed");
      // The second refund is asked for (the gate comes first), then refused: the restored tool is still bound to DRAFT.
      expect(again.status).toBe("waiting");
      const done = await platform.respond(again.id, "r2", { approved: true });
      expect(done.status).toBe("completed");
      expect(runs).toEqual(['{"cents":500}']);
      expect(lastResult(model, 5)).toContain(
        "This tool is not available in the current state (CONFIRMED). It is only available in state: DRAFT",
      );
    },
  );
});
