// executeToolCall, driven through runToolLoop: what the model is told, what
// listeners and spans see, for each way a call can end.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { installRecordingTracer } from "../../test/support/recording-tracer.js";
import { ReplanRequested } from "../errors/replan-requested.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { approvalCallbackAuthority } from "./approval-callback-authority.js";
import { runToolLoop, type ToolLoopEvent } from "./tool-loop.js";

const spans = installRecordingTracer();

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

/** The tool-call-end events of a loop run with `tools` against `model`. */
async function toolCallEnds(model: ScriptedModel, tools: Tool[]) {
  const events: ToolLoopEvent[] = [];
  await runToolLoop({ model, prompt, tools, onEvent: (event) => events.push(event) });
  return events.filter((event) => event.type === "tool-call-end");
}

/** The first tool result the model was sent, in its second request. */
function firstResult(model: ScriptedModel) {
  return model.requests[1]?.toolResults[0]?.output;
}

describe("executeToolCall", () => {
  it("times a tool call from its start: the duration is at least the tool's work and at most the whole loop's", async () => {
    const sleepy = Tool.create(
      "sleepy",
      "Sleeps",
      () => new Promise<ToolResult>((resolve) => setTimeout(() => resolve(ToolResult.text("up")), 30)),
    );
    const model = ScriptedModel.of(ScriptedModel.toolCall("sleepy", {}), ScriptedModel.text("ok"));
    const before = performance.now();
    const ends = await toolCallEnds(model, [sleepy]);
    const elapsed = performance.now() - before;
    expect(ends).toHaveLength(1);
    const durationMs = ends[0]?.type === "tool-call-end" ? ends[0].durationMs : Number.NaN;
    expect(durationMs).toBeGreaterThanOrEqual(25);
    expect(durationMs).toBeLessThanOrEqual(elapsed);
  });

  it("ends a timed-out tool's span with an error status naming the timeout", async () => {
    spans.length = 0;
    const hang = Tool.create(
      "hang",
      "Hangs",
      ToolMetadata.create({ toolTimeoutMs: 20 }),
      (_input, _context, options) =>
        new Promise<ToolResult>((resolve) =>
          options?.signal?.addEventListener("abort", () => resolve(ToolResult.text("late"))),
        ),
    );
    const model = ScriptedModel.of(ScriptedModel.toolCall("hang", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [hang] });
    const span = spans.find((candidate) => candidate.name === "execute_tool hang");
    expect(span?.ended).toBe(true);
    expect(span?.status).toEqual({ code: 2, message: "Tool 'hang' timed out after 20 ms" });
  });

  it("ends a successful tool's span without an error status", async () => {
    spans.length = 0;
    const fine = Tool.create("fine", "Fine", () => ToolResult.text("all good"));
    const model = ScriptedModel.of(ScriptedModel.toolCall("fine", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [fine] });
    const span = spans.find((candidate) => candidate.name === "execute_tool fine");
    expect(span?.ended).toBe(true);
    expect(span?.status).toBeUndefined();
  });

  it("sends a result exactly at the tool's maxResultChars whole", async () => {
    const exact = Tool.create("exact", "Exact", ToolMetadata.create({ maxResultChars: 5 }), () =>
      ToolResult.text("12345"),
    );
    const model = ScriptedModel.of(ScriptedModel.toolCall("exact", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [exact] });
    expect(firstResult(model)).toEqual({ type: "text", value: "12345" });
  });

  it("cuts a failing tool's warning at the tool's maxResultChars", async () => {
    const verbose = Tool.create("verbose", "Verbose", ToolMetadata.create({ maxResultChars: 60 }), () => {
      throw new Error("x".repeat(500));
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("verbose", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [verbose] });
    const output = firstResult(model) as { type: string; value: string };
    expect(output.type).toBe("text");
    expect(output.value.startsWith("WARNING: Tool 'verbose' failed with exception: xxx")).toBe(true);
    expect(output.value).toContain("[Output of tool 'verbose' cut: showing the first 60 of 547 characters");
  });

  it("sends a failing tool's warning exactly at its maxResultChars whole", async () => {
    const warning = "WARNING: Tool 'w' failed with exception: boom";
    const failing = Tool.create("w", "W", ToolMetadata.create({ maxResultChars: warning.length }), () => {
      throw new Error("boom");
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("w", {}), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [failing] });
    expect(firstResult(model)).toEqual({ type: "text", value: warning });
  });

  it("keeps blank arguments of an unknown tool's call as {} in the transcript", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("nope", "  "), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [] });
    const assistant = model.requests[1]?.prompt.find((message) => message.role === "assistant");
    expect(assistant?.content).toEqual([
      { type: "tool-call", toolCallId: expect.any(String), toolName: "nope", input: {} },
    ]);
  });
  it("keeps arguments that are not JSON of an unknown tool's call verbatim in the transcript", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("nope", "{city: Paris"), ScriptedModel.text("ok"));
    await runToolLoop({ model, prompt, tools: [] });
    const assistant = model.requests[1]?.prompt.find((message) => message.role === "assistant");
    expect(assistant?.content).toEqual([
      { type: "tool-call", toolCallId: expect.any(String), toolName: "nope", input: "{city: Paris" },
    ]);
  });

  it("ends a call a person denied with a tool-call-end, keeping its arguments in the transcript", async () => {
    const runs: unknown[] = [];
    const refund = Tool.requireApproval(
      Tool.create("refund", "Refunds an order", (input) => {
        runs.push(input);
        return ToolResult.text("refunded");
      }),
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("refund", { order: 7 }, { id: "r1" }),
      ScriptedModel.text("Could not."),
    );
    const events: ToolLoopEvent[] = [];
    await runToolLoop({
      model,
      prompt,
      tools: [refund],
      approvals: approvalCallbackAuthority(() => ({ approved: false, reason: "no" })),
      onEvent: (event) => events.push(event),
      eventTypes: new Set(["tool-call-start", "tool-call-end"]),
    });
    expect(runs).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(["tool-call-start", "tool-call-end"]);
    expect(events[1]).toMatchObject({ toolCallId: "r1", result: { kind: "error" } });
    const assistant = model.requests[1]?.prompt.find((message) => message.role === "assistant");
    expect(assistant?.content).toMatchObject([
      { type: "tool-call", toolName: "refund", input: { order: 7 } },
    ]);
  });
  it("ends a call that asked for a replan with a tool-call-end whose result is empty", async () => {
    const escalate = Tool.create("escalate", "Escalates", () => {
      throw new ReplanRequested("needs a person");
    });
    const model = ScriptedModel.of(ScriptedModel.toolCall("escalate", {}));
    const ends = await toolCallEnds(model, [escalate]);
    expect(ends).toMatchObject([{ toolName: "escalate", result: { kind: "text", content: "" } }]);
  });
});
