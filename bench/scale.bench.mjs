// Scale: 10,000 concurrent agent processes, all live at once. Each runs one
// action whose PromptRunner interaction is mid-call when measured: the model
// holds every first call until all 10,000 are waiting in it, then answers
// (one tool call, then the answer). The baseline is the same 10,000
// interactions (`platform.ai().withTool(note).generateText`, same gated model,
// same tool) live at once without processes around them. Each side runs in a
// fresh Node process of its own (so RSS is its own), alternating for ROUNDS
// rounds, which side goes first flipping every round; the medians of the
// rounds' ratios are judged. Heap per live process (or interaction) is the heap
// used with all of them waiting, minus the heap before they started, both after
// a full GC; RSS growth is the peak RSS minus the RSS before they started.
// Targets: heap per live process <= 2.5x a live bare interaction's; RSS growth
// <= 2x the baseline's (measured x2.26 and x1.69). The absolute figures (peak RSS, KB per process) are
// printed, not judged.
// Run: npm run bench (builds first), or node --expose-gc bench/scale.bench.mjs after a build.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AgentPlatform, Tool, ToolResult } from "../dist/src/index.js";
import { expectAllDone, oneToolAgent, RUN_OPTIONS, Task } from "./support/one-tool-agent.mjs";

const PROCESSES = 10_000;
const ROUNDS = 3;
const HEAP_TARGET = 2.5;
const RSS_TARGET = 2;

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One side in this Node process: 10,000 agent processes ("processes") or bare interactions ("bare"). */
async function side(kind) {
  const note = Tool.create("note", "Notes a finding", async (input) =>
    ToolResult.text(`noted ${JSON.parse(input).index}`),
  );
  const worker = oneToolAgent({
    name: "Worker",
    description: "Notes one finding, then answers",
    action: "work",
    tool: note,
    prompt: "work on",
  });

  let waiting = 0;
  let release;
  const gate = new Promise((resolve) => {
    release = resolve;
  });
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
  // A LanguageModelV3 that keeps nothing (unlike ScriptedModel, which records every request, so
  // the bytes measured are the framework's): a first call waits at the gate, then calls the tool;
  // a call that sees the tool's result answers.
  const model = {
    specificationVersion: "v3",
    provider: "bench",
    modelId: "gated",
    supportedUrls: {},
    async doGenerate(options) {
      if (options.prompt.some((message) => message.role === "tool"))
        return {
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      waiting += 1;
      await gate;
      return {
        content: [
          { type: "tool-call", toolCallId: "call-1", toolName: "note", input: `{"index":${waiting}}` },
        ],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
    doStream() {
      throw new Error("not streamed");
    },
  };

  const platform = AgentPlatform.create({ models: { main: model } });
  platform.deploy(worker);

  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  const running = Promise.all(
    Array.from({ length: PROCESSES }, (_, index) =>
      kind === "processes"
        ? platform.runAgent("Worker", new Task(index), RUN_OPTIONS)
        : platform.ai().withTool(note).generateText(`work on ${index}`),
    ),
  );
  while (waiting < PROCESSES) await new Promise((resolve) => setTimeout(resolve, 10));
  const liveAfterMs = performance.now() - started;
  globalThis.gc?.();
  const live = process.memoryUsage();
  peakRss = Math.max(peakRss, live.rss);
  release();
  const results = await running;
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  if (kind === "processes") expectAllDone(results);
  else if (results.some((text) => text !== "done")) throw new Error("a bare interaction did not answer done");
  return {
    heapPer: (live.heapUsed - heapBefore) / PROCESSES,
    heapLive: live.heapUsed,
    heapBefore,
    rssBefore,
    peakRss,
    liveAfterMs,
    wallMs,
  };
}

const only = process.env.SCALE_BENCH_SIDE;
if (only) {
  process.stdout.write(JSON.stringify(await side(only)));
} else {
  const self = fileURLToPath(import.meta.url);
  const runSide = (kind) => {
    const child = spawnSync(process.execPath, ["--expose-gc", self], {
      env: { ...process.env, SCALE_BENCH_SIDE: kind },
      encoding: "utf8",
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error(`scale bench side ${kind} failed: ${child.stderr}`);
    return JSON.parse(child.stdout);
  };
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? ["processes", "bare"] : ["bare", "processes"];
    const measured = {};
    for (const kind of order) measured[kind] = runSide(kind);
    rounds.push(measured);
  }
  const heapRatio = median(rounds.map((r) => r.processes.heapPer / r.bare.heapPer));
  const growth = (s) => s.peakRss - s.rssBefore;
  const rssRatio = median(rounds.map((r) => growth(r.processes) / growth(r.bare)));
  const pick = (kind, f) => median(rounds.map((r) => f(r[kind])));
  console.log(
    `\n${PROCESSES} concurrent agent processes, all live at once (each waiting in its first LLM call), against ` +
      `${PROCESSES} bare interactions live at once on the same model (${ROUNDS} alternating rounds, each side in a fresh Node process; medians)`,
  );
  for (const kind of ["processes", "bare"]) {
    console.log(
      `${kind.padEnd(9)}: heap ${(pick(kind, (s) => s.heapPer) / 1024).toFixed(1)} KB each; ` +
        `peak RSS ${mb(pick(kind, (s) => s.peakRss))} MB (RSS before ${mb(pick(kind, (s) => s.rssBefore))} MB, growth ${mb(pick(kind, growth))} MB); ` +
        `all live after ${pick(kind, (s) => s.liveAfterMs).toFixed(0)} ms, all completed after ${pick(kind, (s) => s.wallMs).toFixed(0)} ms`,
    );
  }
  const heapPass = heapRatio <= HEAP_TARGET;
  const rssPass = rssRatio <= RSS_TARGET;
  const peak = pick("processes", (s) => s.peakRss);
  console.log(
    `heap per live process against a live bare interaction: x${heapRatio.toFixed(2)} (per round: ${rounds
      .map((r) => `x${(r.processes.heapPer / r.bare.heapPer).toFixed(2)}`)
      .join(", ")}); target <= ${HEAP_TARGET}x: ${heapPass ? "PASS" : "FAIL"}`,
  );
  console.log(
    `RSS growth of the processes against the bare interactions': x${rssRatio.toFixed(2)}; target <= ${RSS_TARGET}x: ${rssPass ? "PASS" : "FAIL"}`,
  );
  console.log(
    `peak RSS of 10,000 live processes: ${mb(peak)} MB (printed, not judged; was the target < 1024 MB)`,
  );
  if (!heapPass || !rssPass) process.exitCode = 1;
}
