import { describe, expect, it } from "vitest";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ToolResult } from "../tool/tool-result.js";
import { formatDuration, ProcessReporter } from "./process-reporter.js";
import { memoryTerminal } from "./terminal.js";

type Event = AgentProcessEvent;
const at = { timestamp: 0 };
const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

function report(events: readonly Event[], verbose = false) {
  const terminal = memoryTerminal();
  const reporter = new ProcessReporter(terminal, { verbose });
  for (const event of events) reporter.listener(event);
  return { lines: terminal.stdout, reporter };
}

/** Process `p` starts calling `toolName` (call id 1). */
const toolCallStart = (toolName: string, input: string): Event => ({
  ...at,
  processId: "p",
  type: "tool-call-start",
  loopId: "l",
  toolCallId: "1",
  toolName,
  input,
});

/** Process `p`'s call of `toolName` (call id 1) ends with `result`. */
const toolCallEnd = (toolName: string, input: string, result: ToolResult): Event => ({
  ...at,
  processId: "p",
  type: "tool-call-end",
  loopId: "l",
  toolCallId: "1",
  toolName,
  input,
  result,
  durationMs: 1,
});

const parentRun: Event[] = [
  { ...at, processId: "p", type: "process-started", agent: "Parent" },
  { ...at, processId: "p", type: "plan-formulated", goal: "G", actions: ["a", "b"], cost: 2, worldState: [] },
  { ...at, processId: "p", type: "action-start", action: "a" },
  { ...at, processId: "p", type: "action-end", action: "a", durationMs: 12, outcome: "succeeded" },
  { ...at, processId: "p", type: "plan-formulated", goal: "G", actions: ["b"], cost: 1, worldState: [] },
];

describe("ProcessReporter", () => {
  it("prints a plan once and again only when it changes", () => {
    const { lines } = report([
      ...parentRun,
      { ...at, processId: "p", type: "plan-formulated", goal: "G", actions: ["c"], cost: 1, worldState: [] },
    ]);
    expect(lines).toEqual(["Plan a → b (goal G)", "▶ a", "✓ a (12ms)", "Plan c (goal G)"]);
  });

  it("prints tool calls with their input and result, errors marked", () => {
    const { lines } = report([
      toolCallStart("add", '{"a":1}'),
      toolCallEnd("add", '{"a":1}', ToolResult.error("b is missing")),
    ]);
    expect(lines).toEqual(['  ⚙ add {"a":1}', "    ↳ error: b is missing"]);
  });

  it("indents a child process under the tool call that started it", () => {
    const { lines } = report([
      toolCallStart("Finder", "{}"),
      { ...at, processId: "c", type: "process-started", agent: "Finder", parentId: "p" },
      { ...at, processId: "c", type: "action-start", action: "find" },
      { ...at, processId: "c", type: "process-finished", status: "completed", durationMs: 3 },
      toolCallEnd("Finder", "{}", ToolResult.text("found")),
    ]);
    expect(lines).toEqual([
      "  ⚙ Finder {}",
      "      ▶ subagent Finder",
      "      ▶ find",
      "      ✓ subagent completed",
      "    ↳ found",
    ]);
  });

  it("marks failed and replanned actions and says why", () => {
    const { lines } = report([
      { ...at, processId: "p", type: "action-end", action: "a", durationMs: 5, outcome: "replan" },
      { ...at, processId: "p", type: "replan-requested", action: "a", reason: "need more" },
      {
        ...at,
        processId: "p",
        type: "action-end",
        action: "b",
        durationMs: 5,
        outcome: "failed",
        error: new Error("boom"),
      },
    ]);
    expect(lines).toEqual(["↺ a (5ms)", "  ↺ a asked to replan: need more", "✗ b failed: boom (5ms)"]);
  });

  it("shortens long results unless verbose", () => {
    const long = "x".repeat(300);
    const end = toolCallEnd("t", "{}", ToolResult.text(long));
    expect(report([end]).lines[0]).toHaveLength(4 + 2 + 140);
    expect(report([end], true).lines[0]).toBe(`    ↳ ${long}`);
  });

  it("shows LLM calls only when verbose, and counts them either way", () => {
    const call: Event = {
      ...at,
      processId: "p",
      type: "llm-call-end",
      loopId: "l",
      iteration: 1,
      modelId: "gpt-4.1",
      provider: "openai.chat",
      usage,
      durationMs: 850,
    };
    const quiet = report([call, call]);
    expect(quiet.lines).toEqual([]);
    expect(quiet.reporter.totals).toEqual({ llmCalls: 2, toolCalls: 0, tokens: 30, processes: 1 });
    expect(report([call], true).lines).toEqual(["  ◆ LLM openai.chat/gpt-4.1 · 15 tokens · 850ms"]);
  });

  it("prints output-channel events indented like their process", async () => {
    const terminal = memoryTerminal();
    const reporter = new ProcessReporter(terminal);
    await reporter.outputChannel.send({ type: "progress", processId: "p", message: "searching" });
    await reporter.outputChannel.send({
      type: "logging",
      processId: "p",
      level: "info",
      message: "one\ntwo",
    });
    expect(terminal.stdout).toEqual(["  … searching", "  │ one\n  │ two"]);
  });

  it("never throws from the listener", () => {
    const { reporter } = report([]);
    expect(() =>
      reporter.listener({ ...at, processId: "p", type: "tool-call-end" } as unknown as Event),
    ).not.toThrow();
  });
});

describe("formatDuration", () => {
  it("uses ms, seconds with a decimal, then minutes", () => {
    expect(formatDuration(850)).toBe("850ms");
    expect(formatDuration(1500)).toBe("1.5s");
    expect(formatDuration(125_000)).toBe("2m 5s");
  });
});

describe("ProcessReporter and the progress and communicate tools", () => {
  it("shows progress lines and messages as such, not as raw tool calls", async () => {
    const terminal = memoryTerminal();
    const reporter = new ProcessReporter(terminal);
    reporter.listener({ ...at, processId: "p", type: "action-start", action: "research" });
    reporter.listener(toolCallStart("progress", '{"status":"Reading sources"}'));
    await reporter.outputChannel.send({ type: "progress", processId: "p", message: "Reading sources" });
    reporter.listener(
      toolCallEnd(
        "progress",
        '{"status":"Reading sources"}',
        ToolResult.text("Progress reported: Reading sources"),
      ),
    );
    reporter.listener(toolCallStart("communicate", '{"message":"Found 3 papers"}'));
    await reporter.outputChannel.send({
      type: "message",
      processId: "p",
      message: { role: "assistant", content: "Found 3 papers" },
    });
    reporter.listener(
      toolCallEnd("communicate", '{"message":"Found 3 papers"}', ToolResult.text("Message sent to user.")),
    );
    reporter.listener(toolCallStart("lookup", "{}"));
    reporter.listener(toolCallEnd("lookup", "{}", ToolResult.text("ok")));
    expect(terminal.stdout).toEqual([
      "▶ research",
      "  … Reading sources",
      "  ✉ Found 3 papers",
      "  ⚙ lookup {}",
      "    ↳ ok",
    ]);
    expect(reporter.totals.toolCalls).toBe(3);
  });

  it("shows a failed progress or communicate call as an error line", () => {
    const { lines } = report([
      toolCallStart("communicate", "{}"),
      toolCallEnd("communicate", "{}", ToolResult.error("Missing 'message' parameter")),
    ]);
    expect(lines).toEqual(["  ✗ communicate: Missing 'message' parameter"]);
  });

  it("prints embedding calls when verbose", () => {
    const embedding: Event = {
      ...at,
      processId: "p",
      type: "embedding-call-end",
      model: "default",
      provider: "openai.embedding",
      modelId: "text-embedding-3-small",
      inputs: 2,
      tokens: 7,
      durationMs: 40,
    };
    expect(report([embedding]).lines).toEqual([]);
    expect(report([embedding], true).lines).toEqual([
      "  ◆ embedding openai.embedding/text-embedding-3-small · 2 text(s) · 7 tokens · 40ms",
    ]);
  });
});
