import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ConcertPlanner,
  concertPlannerScript,
  PerformanceFinder,
} from "../examples/concert-planner/index.js";
import { UserInput } from "../examples/user-input.js";
import { AgentPlatform, ProcessOptions } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import {
  type LlmNode,
  type ProcessNode,
  readTrace,
  type ToolNode,
  TRACE_FORMAT,
  TRACE_VERSION,
  type TraceNode,
  TraceRecorder,
  TraceSink,
  TraceTree,
} from "../src/trace/index.js";

const folder = mkdtempSync(join(tmpdir(), "embabel-trace-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function recordConcert(path: string) {
  const platform = AgentPlatform.create({
    models: { default: new ScriptedModel(concertPlannerScript()) },
    prices: { scripted: { inputPerMillion: 10, outputPerMillion: 20 } }, // the scripts record realistic token counts: keep the run well inside the default cost budget
  });
  const planner = platform.deploy(ConcertPlanner);
  platform.deploy(PerformanceFinder);
  const recorder = TraceRecorder.toFile(path, { meta: { example: "concert-planner", input: "Mozart" } });
  const process = await platform.runAgent(planner, UserInput.create({ content: "A Mozart evening" }), {
    processOptions: recorder.attach(ProcessOptions.DEFAULT),
  });
  recorder.close();
  return process;
}

function walk(nodes: readonly TraceNode[], out: TraceNode[] = []): TraceNode[] {
  for (const node of nodes) {
    out.push(node);
    if ("children" in node) walk(node.children, out);
  }
  return out;
}

describe("TraceRecorder", () => {
  it("writes a versioned header, then one JSON line per event, child processes included", async () => {
    const path = join(folder, "concert.jsonl");
    const process = await recordConcert(path);
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    const header = JSON.parse(lines[0] as string);
    expect(header).toMatchObject({
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      meta: { example: "concert-planner", input: "Mozart" },
    });
    const records = lines.slice(1).map((line) => JSON.parse(line));
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect(records[0]).toMatchObject({
      type: "process-started",
      processId: process.id,
      agent: "ConcertPlanner",
    });
    expect(records.at(-1)).toMatchObject({
      type: "process-finished",
      processId: process.id,
      status: "completed",
    });
    const child = records.find(
      (record) => record.type === "process-started" && record.agent === "PerformanceFinder",
    );
    const starter = records.find(
      (record) => record.type === "tool-call-start" && record.toolName === "PerformanceFinder",
    );
    expect(child).toMatchObject({ parentId: process.id, parentToolCallId: starter.toolCallId });
    expect(records.some((record) => record.type === "object-added" && record.typeName === "Concert")).toBe(
      true,
    );
  });

  it("writes each LLM call's new messages only, and each tool definition once", async () => {
    const path = join(folder, "deltas.jsonl");
    await recordConcert(path);
    const { records } = readTrace(path);
    const starts = records.filter((record) => record.type === "llm-call-start");
    const byLoop = new Map<string, number>();
    for (const start of starts) {
      const loop = String(start.loopId);
      expect(start.messageOffset).toBe(byLoop.get(loop) ?? 0);
      byLoop.set(loop, Number(start.messageOffset) + (start.messages as unknown[]).length);
    }
    const defined = starts.flatMap((start) =>
      (start.toolDefinitions as { name: string }[]).map((definition) => definition.name),
    );
    expect(new Set(defined).size).toBe(defined.length);
    expect(defined).toEqual(expect.arrayContaining(["venue_tools", "find_venues", "PerformanceFinder"]));
    const end = records.find((record) => record.type === "llm-call-end");
    expect(end).toMatchObject({
      modelId: "scripted",
      costUsd: expect.any(Number),
      response: expect.any(Array),
    });
  });

  it("has written every event so far while the run is still going (a crash keeps them)", async () => {
    const path = join(folder, "live.jsonl");
    const seen: number[] = [];
    const platform = AgentPlatform.create({ models: { default: new ScriptedModel(concertPlannerScript()) } });
    const planner = platform.deploy(ConcertPlanner);
    platform.deploy(PerformanceFinder);
    const recorder = TraceRecorder.toFile(path);
    const options = recorder.attach(ProcessOptions.DEFAULT).withListener((event) => {
      if (event.type === "tool-call-start") {
        // The file already holds this very event when the next listener sees it.
        const lines = readFileSync(path, "utf8").trimEnd().split("\n");
        seen.push(lines.length);
        expect(JSON.parse(lines.at(-1) as string)).toMatchObject({
          type: "tool-call-start",
          toolName: event.toolName,
        });
      }
    });
    await platform.runAgent(planner, UserInput.create({ content: "Mozart" }), { processOptions: options });
    recorder.close();
    expect(seen.length).toBeGreaterThan(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it("keeps working when an event holds a cycle, an error or binary data", () => {
    const lines: string[] = [];
    const recorder = new TraceRecorder(TraceSink.lines((line) => lines.push(line)));
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    recorder.listener({
      type: "object-added",
      processId: "p",
      timestamp: 1,
      action: "a",
      typeName: "Thing",
      value: { cyclic, error: new Error("bad"), bytes: new Uint8Array(3), big: 10n },
    });
    expect(JSON.parse(lines[1] as string).value).toEqual({
      cyclic: { name: "loop", self: "[Circular]" },
      error: { name: "Error", message: "bad" },
      bytes: "[binary, 3 bytes]",
      big: "10",
    });
    recorder.close();
    recorder.listener({ type: "goal-achieved", processId: "p", timestamp: 2, goal: "g" });
    expect(lines).toHaveLength(2);
  });

  it("writes files only its owner can read, in folders only its owner can list, even over an existing file", () => {
    const path = join(folder, "private", "deeper", "run.jsonl");
    TraceRecorder.toFile(path).close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, "private")).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, "private", "deeper")).mode & 0o777).toBe(0o700);
    const existing = join(folder, "existing.jsonl");
    writeFileSync(existing, "old", { mode: 0o644 });
    TraceRecorder.toFile(existing).close();
    expect(statSync(existing).mode & 0o777).toBe(0o600);
  });

  it("redacts credentials from the header and every record: provider errors, reasons, URLs", async () => {
    const lines: string[] = [];
    const recorder = new TraceRecorder(
      TraceSink.lines((line) => lines.push(line)),
      { meta: { model: "openai-compatible:gpt@http://user:basic-SECRET-pw@127.0.0.1:9999/v1" } },
    );
    const echoed = '401 Unauthorized: {"received":"Authorization: Bearer sk-compat-SECRET-123"}';
    const platform = AgentPlatform.create({ models: { default: new ScriptedModel() } });
    await platform.runInProcess(
      async () => {
        throw new Error(echoed);
      },
      { processOptions: recorder.attach(ProcessOptions.DEFAULT) },
    );
    recorder.close();
    const text = lines.join("\n");
    expect(text).not.toContain("SECRET");
    expect(JSON.parse(lines[0] as string).meta.model).toBe(
      "openai-compatible:gpt@http://[REDACTED]@127.0.0.1:9999/v1",
    );
    expect(text).toContain("Authorization: Bearer [REDACTED]");
  });
});

describe("TraceTree", () => {
  it("nests plans, actions, LLM calls, tool calls and the subagent under its tool call", async () => {
    const path = join(folder, "tree.jsonl");
    const process = await recordConcert(path);
    const view = new TraceTree(readTrace(path)).view();
    expect(view).toMatchObject({ status: "completed", totals: { processes: 2 } });
    expect(view.totals.costUsd).toBeCloseTo(process.costUsd, 10);
    expect(view.totals.tokens.totalTokens).toBe(process.usage.totalTokens);
    const root = view.roots[0] as ProcessNode;
    expect(root.agent).toBe("ConcertPlanner");
    expect(root.children.map((node) => node.kind)).toEqual(expect.arrayContaining(["plan", "action"]));
    const nodes = walk(view.roots);
    const performanceFinderCall = nodes.find(
      (node): node is ToolNode => node.kind === "tool" && node.name === "PerformanceFinder",
    );
    expect(performanceFinderCall?.children.map((node) => node.kind === "process" && node.agent)).toEqual([
      "PerformanceFinder",
    ]);
    const facade = nodes.find(
      (node): node is ToolNode => node.kind === "tool" && node.name === "venue_tools",
    );
    expect(facade?.added).toEqual(expect.arrayContaining(["find_venues", "check_availability"]));
    expect(facade?.result?.content).toBeTruthy();
    expect(view.totals.toolCalls).toBe(nodes.filter((node) => node.kind === "tool").length);
  });

  it("shows an LLM call's whole conversation and tool list, marking what is new since the loop's previous call", async () => {
    const path = join(folder, "detail.jsonl");
    await recordConcert(path);
    const tree = new TraceTree(readTrace(path));
    const calls = walk(tree.view().roots).filter((node): node is LlmNode => node.kind === "llm");
    const afterUnfold = calls.find((call) => call.toolNames.includes("find_venues"));
    const detail = tree.llmCall(afterUnfold?.id as string);
    expect(detail?.tools.filter((tool) => tool.change === "added").map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["find_venues", "check_availability"]),
    );
    expect(detail?.tools.find((tool) => tool.name === "find_venues")).toMatchObject({
      description: expect.any(String),
      inputSchema: expect.any(Object),
    });
    expect(detail?.messages.length).toBeGreaterThan(detail?.newFrom ?? 0);
    expect(detail?.newFrom).toBeGreaterThan(0);
    expect(tree.llmCall("no-such-call")).toBeUndefined();
  });
});
