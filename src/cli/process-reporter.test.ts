import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentPlatform } from "../platform/agent-platform.js";
import { defineAction, defineAgent } from "../platform/define-agent.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { formatDuration, ProcessReporter, renderTrace, traceRenderer } from "./process-reporter.js";
import { memoryTerminal } from "./terminal.js";

type Event = AgentProcessEvent;
const Words = domainType("Words", z.object({ text: z.string() }));
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
    expect(lines).toEqual(['  ⚙ add {"a":1}', "    ↳ error: b is missing (1ms)"]);
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
      "    ↳ found (1ms)",
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
    expect(report([end]).lines[0]).toHaveLength(4 + 2 + 140 + " (1ms)".length);
    expect(report([end], true).lines[0]).toBe(`    ↳ ${long} (1ms)`);
  });

  it("shows each LLM call with its tokens, cost and duration, and counts them", () => {
    const call: Event = {
      ...at,
      processId: "p",
      type: "llm-call-end",
      loopId: "l",
      iteration: 1,
      modelId: "gpt-4.1",
      provider: "openai.chat",
      usage,
      durationMs: 850.25,
      costUsd: 0.00006,
    };
    const quiet = report([call, call]);
    expect(quiet.lines).toEqual([
      "  ◆ LLM gpt-4.1 · 15 tokens (10 in, 5 out) · $0.0001 · 850ms",
      "  ◆ LLM gpt-4.1 · 15 tokens (10 in, 5 out) · $0.0001 · 850ms",
    ]);
    expect(quiet.reporter.totals).toEqual({
      llmCalls: 2,
      llmRetries: 0,
      toolCalls: 0,
      tokens: 30,
      processes: 1,
      costUsd: 0.00012,
      unpricedModels: [],
    });
    expect(report([call], true).lines).toEqual([
      "  ◆ LLM openai.chat/gpt-4.1 · 15 tokens (10 in, 5 out) · $0.0001 · 850ms",
    ]);
  });

  it("leaves the cost out of a call whose model has no price, and names the model in the summary", () => {
    const { lines, reporter } = report([
      {
        ...at,
        processId: "p",
        type: "llm-call-end",
        loopId: "l",
        iteration: 1,
        modelId: "qwen2.5",
        provider: "ollama.chat",
        usage: { inputTokens: 1200, outputTokens: 340, totalTokens: 1540 },
        durationMs: 2400,
      },
      { ...at, processId: "p", type: "process-finished", status: "completed", durationMs: 2500 },
    ]);
    expect(lines).toEqual(["  ◆ LLM qwen2.5 · 1,540 tokens (1,200 in, 340 out) · 2.4s"]);
    expect(reporter.summary()).toBe(
      "✔ completed 2.5s · 0 actions · 1 LLM call · 0 tool calls · 1,540 tokens · cost unknown (no price for qwen2.5)",
    );
  });

  it("sums a run and its subagents in the summary line, with the cost in dollars", () => {
    const llm = (processId: string, costUsd: number): Event => ({
      ...at,
      processId,
      type: "llm-call-end",
      loopId: "l",
      iteration: 1,
      modelId: "gpt-4.1-mini",
      provider: "openai.chat",
      usage: { inputTokens: 1000, outputTokens: 100, totalTokens: 1100 },
      durationMs: 5,
      costUsd,
    });
    const { reporter } = report([
      ...parentRun,
      llm("p", 0.00056),
      toolCallStart("Finder", "{}"),
      { ...at, processId: "c", type: "process-started", agent: "Finder", parentId: "p" },
      llm("c", 0.00056),
      { ...at, processId: "c", type: "process-finished", status: "completed", durationMs: 3 },
      toolCallEnd("Finder", "{}", ToolResult.text("found")),
    ]);
    expect(reporter.summary()).toBeUndefined(); // the top-level process has not finished
    reporter.listener({
      ...at,
      processId: "p",
      type: "process-finished",
      status: "completed",
      durationMs: 1234,
    });
    expect(reporter.summary()).toBe(
      "✔ completed 1.2s · 1 action · 2 LLM calls · 1 tool call · 2,200 tokens · 1 subagent run · $0.0011",
    );
  });

  it("says how a run that did not complete ended, with the reason", () => {
    const { reporter } = report([
      { ...at, processId: "p", type: "action-end", action: "a", durationMs: 5, outcome: "killed" },
      { ...at, processId: "p", type: "process-finished", status: "killed", reason: "Ctrl-C", durationMs: 6 },
    ]);
    expect(reporter.summary()).toBe(
      "✘ killed: Ctrl-C 6ms · 1 action · 0 LLM calls · 0 tool calls · 0 tokens",
    );
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

describe("renderTrace", () => {
  it("renders recorded events as the CLI's tree, then the summary", () => {
    const text = renderTrace([
      ...parentRun,
      toolCallStart("add", '{"a":1,"b":2}'),
      toolCallEnd("add", '{"a":1,"b":2}', ToolResult.text("3")),
      { ...at, processId: "p", type: "process-finished", status: "completed", durationMs: 40 },
    ]);
    expect(text.split("\n")).toEqual([
      "Plan a → b (goal G)",
      "▶ a",
      "✓ a (12ms)",
      '  ⚙ add {"a":1,"b":2}',
      "    ↳ 3 (1ms)",
      "✔ completed 40ms · 1 action · 0 LLM calls · 1 tool call · 0 tokens",
    ]);
  });

  it("colours only when asked", () => {
    expect(renderTrace(parentRun)).not.toContain("\u001b[");
    expect(renderTrace(parentRun, { colour: true })).toContain("\u001b[");
  });
});

describe("traceRenderer", () => {
  it("writes a real agent run live: plan, action, LLM call with tokens and cost, tool call with duration", async () => {
    const lines: string[] = [];
    const trace = traceRenderer({ write: (line) => lines.push(line) });
    const model = new ScriptedModel(
      [
        ScriptedModel.toolCall("shout", { text: "hi" }, { usage: { inputTokens: 1000, outputTokens: 50 } }),
        ScriptedModel.text("HI", { usage: { inputTokens: 1100, outputTokens: 5 } }),
      ],
      { modelId: "gpt-4.1" },
    );
    const platform = AgentPlatform.create({ models: { default: model } });
    const shout = Tool.create(
      "shout",
      "Shouts",
      InputSchema.of(Param.string("text", "What")),
      async (input) => ToolResult.text(String(JSON.parse(input).text).toUpperCase()),
    );
    const agent = defineAgent({
      name: "Shouter",
      description: "Shouts",
      actions: [
        defineAction({
          name: "shoutIt",
          input: Words,
          output: Words,
          achievesGoal: { description: "Shouted" },
          run: async (words, context) => ({
            text: await context.ai().withTool(shout).generateText(words.text),
          }),
        }),
      ],
    });
    const options = ProcessOptions.DEFAULT.withListener(trace.listener).withOutputChannel(
      trace.outputChannel,
    );
    const run = await platform.runAgent(agent, Words.create({ text: "hi" }), { processOptions: options });
    expect(run.status).toBe("completed");
    expect(lines[0]).toMatch(/^Plan shoutIt /);
    expect(lines[1]).toBe("▶ shoutIt");
    expect(lines[2]).toMatch(
      /^ {2}◆ LLM gpt-4\.1 · 1,050 tokens \(1,000 in, 50 out\) · \$0\.0024 · (<1ms|\d+ms)$/,
    );
    expect(lines[3]).toBe('  ⚙ shout {"text":"hi"}');
    expect(lines[4]).toMatch(/^ {4}↳ HI \((<1ms|\d+ms)\)$/);
    expect(lines[5]).toMatch(/^ {2}◆ LLM gpt-4\.1 · 1,105 tokens \(1,100 in, 5 out\) · \$0\.0022 · /);
    expect(lines[6]).toMatch(/^✓ shoutIt \(/);
    expect(trace.summary()).toMatch(
      /^✔ completed .* · 1 action · 2 LLM calls · 1 tool call · 2,155 tokens · \$0\.0046$/,
    );
    expect(run.costUsd).toBeCloseTo(0.00464, 8); // the summary rounds to 4 decimals
  });

  it("ends a killed action with the word the summary uses", async () => {
    const lines: string[] = [];
    const trace = traceRenderer({ write: (line) => lines.push(line) });
    const controller = new AbortController();
    const model = new ScriptedModel([ScriptedModel.text("never", { delayMs: 10_000 })]);
    const platform = AgentPlatform.create({ models: { default: model } });
    const agent = defineAgent({
      name: "Slow",
      description: "Waits",
      actions: [
        defineAction({
          name: "wait",
          input: Words,
          output: Words,
          achievesGoal: { description: "Waited" },
          run: async (words, context) => {
            setTimeout(() => controller.abort(new Error("Interrupted (Ctrl-C)")), 20);
            return { text: await context.ai().generateText(words.text) };
          },
        }),
      ],
    });
    const options = ProcessOptions.DEFAULT.withListener(trace.listener);
    const run = await platform.runAgent(agent, Words.create({ text: "go" }), {
      processOptions: options,
      signal: controller.signal,
    });
    expect(run.status).toBe("killed");
    expect(lines.find((line) => line.startsWith("✗ wait"))).toMatch(/^✗ wait killed \(/);
    expect(trace.summary()).toMatch(/^✘ killed: Interrupted \(Ctrl-C\) /);
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
      "    ↳ ok (1ms)",
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

describe("traceRenderer and renderTrace with hostile text", () => {
  it("print tool input, tool output, errors and reasons without escape sequences, in colour or not", () => {
    const osc = "\u001b]52;c;Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZS94fHNo\u0007\u001b]0;TITLE\u001b\\";
    const events: Event[] = [
      ...parentRun,
      toolCallStart("lookup", `{"q":"${osc}"}`),
      toolCallEnd("lookup", "{}", ToolResult.text(`Clear${osc} sky`)),
      {
        ...at,
        processId: "p",
        type: "action-end",
        action: "b",
        durationMs: 1,
        outcome: "failed",
        error: new Error(`boom${osc}`),
      },
      {
        ...at,
        processId: "p",
        type: "process-finished",
        status: "failed",
        reason: `Bad key sk-aaaaaaaaaaaaaaaa${osc}`,
        durationMs: 3,
      },
    ];
    for (const colour of [false, true]) {
      const text = renderTrace(events, { colour, verbose: true });
      expect(text).not.toContain("\u001b]");
      expect(text).not.toContain("\u0007");
      expect(text).not.toContain("sk-aaaa");
      expect(text).toContain("Clear sky");
      expect(text).toContain("boom");
      expect(text).toContain("Bad key [REDACTED]");
    }
    const lines: string[] = [];
    const live = traceRenderer({ write: (line) => lines.push(line) });
    for (const event of events) live.listener(event);
    expect(lines.join("\n")).not.toContain("\u001b");
  });
});
