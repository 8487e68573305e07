import { describe, expect, it } from "vitest";
import type { Trace, TraceRecord } from "./trace-format.js";
import {
  type ActionNode,
  type EventNode,
  type PlanNode,
  type ProcessNode,
  type TraceNode,
  TraceTree,
} from "./trace-tree.js";

function trace(...events: Omit<TraceRecord, "seq" | "timestamp">[]): Trace {
  return {
    header: { format: "embabel-ts-trace", version: 1, runId: "r", startedAt: 100, meta: {} },
    records: events.map((event, index) => ({
      seq: index + 1,
      timestamp: 100 + index,
      ...event,
    })) as TraceRecord[],
  };
}

describe("TraceTree", () => {
  it("marks a plan that changed since the last one as a replan, not one that continues it", () => {
    const view = new TraceTree(
      trace(
        { type: "process-started", processId: "p", agent: "A" },
        { type: "plan-formulated", processId: "p", goal: "g", actions: ["a", "b"], cost: 2, worldState: [] },
        { type: "action-start", processId: "p", action: "a" },
        { type: "action-end", processId: "p", action: "a", outcome: "succeeded", durationMs: 1 },
        { type: "plan-formulated", processId: "p", goal: "g", actions: ["b"], cost: 1, worldState: [] },
        { type: "action-start", processId: "p", action: "b" },
        { type: "replan-requested", processId: "p", action: "b", reason: "need more" },
        { type: "action-end", processId: "p", action: "b", outcome: "replan", durationMs: 1 },
        { type: "plan-formulated", processId: "p", goal: "g", actions: ["c", "b"], cost: 2, worldState: [] },
      ),
    ).view();
    const plans = (view.roots[0] as ProcessNode).children.filter(
      (node): node is PlanNode => node.kind === "plan",
    );
    expect(plans.map((plan) => plan.replan)).toEqual([false, false, true]);
    const replanned = (view.roots[0] as ProcessNode).children.find(
      (node): node is ActionNode => node.kind === "action" && node.name === "b",
    );
    expect(replanned?.outcome).toBe("replan");
    expect((replanned?.children[0] as EventNode | undefined)?.summary).toBe("b asked to replan: need more");
    expect(view.status).toBe("running");
  });

  it("shows event kinds it does not know as events inside the running action, fields included", () => {
    const view = new TraceTree(
      trace(
        { type: "process-started", processId: "p" },
        { type: "action-start", processId: "p", action: "a" },
        { type: "state-entered", processId: "p", machine: "order", state: "paid" },
        {
          type: "action-end",
          processId: "p",
          action: "a",
          outcome: "failed",
          durationMs: 3,
          error: { name: "Error", message: "printer on fire" },
        },
        {
          type: "process-finished",
          processId: "p",
          status: "failed",
          reason: "printer on fire",
          durationMs: 9,
        },
      ),
    ).view();
    const action = (view.roots[0] as ProcessNode).children[0] as ActionNode;
    expect(action).toMatchObject({ outcome: "failed", error: "printer on fire", durationMs: 3 });
    expect(action.children[0]).toMatchObject({
      kind: "event",
      type: "state-entered",
      summary: 'state-entered {"machine":"order","state":"paid"}',
    });
    expect(view).toMatchObject({ status: "failed", durationMs: 9 });
  });

  it("keeps records of a process whose start it never saw, and a subagent whose tool call it never saw", () => {
    const view = new TraceTree(
      trace(
        { type: "goal-achieved", processId: "orphan", goal: "g" },
        { type: "process-started", processId: "child", agent: "C", parentId: "gone", parentToolCallId: "t9" },
      ),
    ).view();
    expect(view.roots.map((root) => root.id)).toEqual(["orphan", "child"]);
    expect((view.roots[0] as ProcessNode).children[0]).toMatchObject({
      kind: "event",
      summary: "goal achieved: g",
    });
  });

  it("counts tokens and cost over every LLM call, subagents included", () => {
    const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
    const view = new TraceTree(
      trace(
        { type: "process-started", processId: "p" },
        { type: "llm-call-start", processId: "p", loopId: "l", iteration: 1, toolNames: ["t"] },
        {
          type: "llm-call-end",
          processId: "p",
          loopId: "l",
          iteration: 1,
          usage,
          costUsd: 0.5,
          durationMs: 2,
        },
        { type: "tool-call-start", processId: "p", loopId: "l", toolCallId: "c", toolName: "t", input: "{}" },
        { type: "process-started", processId: "q", parentId: "p", parentToolCallId: "c" },
        { type: "llm-call-start", processId: "q", loopId: "m", iteration: 1, toolNames: [] },
        { type: "llm-call-end", processId: "q", loopId: "m", iteration: 1, usage, durationMs: 2 },
      ),
    ).view();
    expect(view.totals).toMatchObject({
      llmCalls: 2,
      toolCalls: 1,
      processes: 2,
      costUsd: 0.5,
      tokens: { inputTokens: 20, outputTokens: 10, totalTokens: 30 },
    });
  });

  it("nests an agentic tool's loop under its tool call, numbered per loop with the loop's name", () => {
    const view = new TraceTree(
      trace(
        { type: "process-started", processId: "p", agent: "A" },
        { type: "llm-call-start", processId: "p", loopId: "outer", iteration: 1, toolNames: ["pb"] },
        {
          type: "tool-call-start",
          processId: "p",
          loopId: "outer",
          toolCallId: "c1",
          toolName: "pb",
          input: "{}",
        },
        {
          type: "llm-call-start",
          processId: "p",
          loopId: "inner",
          iteration: 1,
          toolNames: ["search"],
          interactionId: "playbook-tool-pb",
        },
        {
          type: "tool-call-start",
          processId: "p",
          loopId: "inner",
          toolCallId: "c2",
          toolName: "search",
          input: "{}",
        },
        { type: "tool-call-end", processId: "p", loopId: "inner", toolCallId: "c2", durationMs: 1 },
        {
          type: "llm-call-start",
          processId: "p",
          loopId: "inner",
          iteration: 2,
          toolNames: ["search"],
          interactionId: "playbook-tool-pb",
        },
        { type: "tool-call-end", processId: "p", loopId: "outer", toolCallId: "c1", durationMs: 5 },
        { type: "llm-call-start", processId: "p", loopId: "outer", iteration: 2, toolNames: ["pb"] },
      ),
    ).view();
    const process = view.roots[0] as ProcessNode;
    const names = (nodes: readonly { kind: string; id: string }[]) =>
      nodes.map((node) => `${node.kind}:${node.id}`);
    expect(names(process.children)).toEqual(["llm:outer:1", "llm:outer:2"]);
    const outerCall = (
      process.children[0] as { children: readonly { kind: string; id: string; children: unknown[] }[] }
    ).children[0];
    expect(outerCall?.kind).toBe("tool");
    const inner = outerCall?.children as { kind: string; id: string; interactionId?: string }[];
    expect(names(inner)).toEqual(["llm:inner:1", "llm:inner:2"]);
    expect(inner.map((node) => node.interactionId)).toEqual(["playbook-tool-pb", "playbook-tool-pb"]);
  });

  it("nests a call under the call it names as parent (code mode), even while a sibling call runs", () => {
    const call = (loopId: string, toolCallId: string, toolName: string, parentToolCallId?: string) => ({
      type: "tool-call-start",
      processId: "p",
      loopId,
      toolCallId,
      toolName,
      input: "{}",
      ...(parentToolCallId ? { parentToolCallId } : {}),
    });
    const done = (loopId: string, toolCallId: string, content: string) => ({
      type: "tool-call-end",
      processId: "p",
      loopId,
      toolCallId,
      durationMs: 1,
      result: { kind: "text", content },
    });
    const view = new TraceTree(
      trace(
        { type: "process-started", processId: "p" },
        { type: "llm-call-start", processId: "p", loopId: "l", iteration: 1, toolNames: ["run_code", "t"] },
        call("l", "c1", "run_code"),
        call("l", "c2", "t"),
        call("k", "k/0", "get_order", "c1"),
        done("k", "k/0", "seven"),
        done("l", "c2", "sibling"),
        call("k", "k/1", "get_order", "c1"),
        done("k", "k/1", "fourteen"),
        done("l", "c1", "21"),
      ),
    ).view();
    const llm = (view.roots[0] as ProcessNode).children[0] as { children: readonly TraceNode[] };
    const shape = (node: TraceNode): unknown =>
      node.kind === "tool"
        ? { name: node.name, result: node.result?.content, children: node.children.map(shape) }
        : node.kind;
    expect(llm.children.map(shape)).toEqual([
      {
        name: "run_code",
        result: "21",
        children: [
          { name: "get_order", result: "seven", children: [] },
          { name: "get_order", result: "fourteen", children: [] },
        ],
      },
      { name: "t", result: "sibling", children: [] },
    ]);
    expect(view.totals.toolCalls).toBe(4);
  });

  it("says a run whose trace has no process never started", () => {
    expect(new TraceTree(trace()).view().status).toBe("not started");
  });
});
