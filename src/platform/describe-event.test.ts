import { describe, expect, it } from "vitest";
import { ToolResult } from "../tool/tool-result.js";
import { describeEvent } from "./describe-event.js";

describe("describeEvent", () => {
  it("describes process lifecycle events", () => {
    expect(describeEvent({ type: "process-started", agent: "Writer", parentId: "p0" })).toBe(
      "Process started for agent Writer (parent p0)",
    );
    expect(
      describeEvent({ type: "plan-formulated", goal: "g", actions: ["a", "b"], cost: 2, worldState: [] }),
    ).toBe("Plan for goal 'g': a -> b (cost 2)");
    expect(describeEvent({ type: "goal-achieved", goal: "g" })).toBe("Goal achieved: g");
    expect(describeEvent({ type: "action-start", action: "a" })).toBe("Action a started");
    expect(describeEvent({ type: "action-end", action: "a", durationMs: 3, outcome: "succeeded" })).toBe(
      "Action a succeeded in 3ms",
    );
    expect(describeEvent({ type: "replan-requested", action: "a", reason: "why" })).toBe(
      "Action a requested a replan: why",
    );
    expect(
      describeEvent({ type: "process-finished", status: "stuck", reason: "no plan", durationMs: 5 }),
    ).toBe("Process stuck: no plan after 5ms");
    expect(describeEvent({ type: "object-added", action: "a", typeName: "Draft", value: {} })).toBe(
      "Action a added a Draft to the blackboard",
    );
    expect(describeEvent({ type: "object-added", typeName: "Topic", value: {} })).toBe(
      "A Topic was added to the blackboard",
    );
  });

  it("describes tool-loop events, truncating long results", () => {
    const usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };
    expect(describeEvent({ type: "llm-call-start", loopId: "l", iteration: 1, toolNames: ["a"] })).toBe(
      "LLM call 1 offering [a]",
    );
    expect(
      describeEvent({
        type: "llm-call-end",
        loopId: "l",
        iteration: 1,
        modelId: "m",
        provider: "p",
        usage,
        durationMs: 4,
      }),
    ).toBe("LLM call 1 to p/m: 3 tokens in 4ms");
    expect(
      describeEvent({ type: "tool-call-start", loopId: "l", toolCallId: "c", toolName: "t", input: "{}" }),
    ).toBe("Tool t({})");
    const long = describeEvent({
      type: "tool-call-end",
      loopId: "l",
      toolCallId: "c",
      toolName: "t",
      input: "{}",
      result: ToolResult.text("x".repeat(300)),
      durationMs: 1,
    });
    expect(long).toBe(`Tool t -> text: ${"x".repeat(200)}… (1ms)`);
    expect(describeEvent({ type: "tools-changed", loopId: "l", added: ["b"], removed: ["a"] })).toBe(
      "Tools changed: +[b] -[a]",
    );
  });
});

describe("describeEvent durations and cost", () => {
  it("rounds durations instead of printing float noise", () => {
    expect(
      describeEvent({
        type: "action-end",
        action: "a",
        durationMs: 1.3544799999999668,
        outcome: "succeeded",
      }),
    ).toBe("Action a succeeded in 1ms");
    expect(describeEvent({ type: "process-finished", status: "completed", durationMs: 1534.2 })).toBe(
      "Process completed after 1.5s",
    );
  });

  it("adds an LLM call's cost when its price is known", () => {
    const usage = { inputTokens: 1000, outputTokens: 200, totalTokens: 1200 };
    const event = {
      type: "llm-call-end",
      loopId: "l",
      iteration: 2,
      modelId: "gpt-4.1",
      provider: "openai.chat",
      usage,
      durationMs: 0.4,
    } as const;
    expect(describeEvent({ ...event, costUsd: 0.0036 })).toBe(
      "LLM call 2 to openai.chat/gpt-4.1: 1200 tokens, $0.0036 in <1ms",
    );
  });
});
