// Scale: 10,000 concurrent agent processes, all live at once. Each runs one
// action whose PromptRunner interaction is mid-call when measured: the model
// holds every first call until all 10,000 processes are waiting in it, then
// answers (one tool call, then the answer). Reports the peak RSS and the heap
// bytes per live process (heap used with all processes waiting, minus the
// heap before they started, both after a full GC).
// Target: 10,000 concurrent processes under 1 GB peak RSS.
// Run: npm run bench (builds first), or node --expose-gc bench/scale.bench.mjs after a build.
import { AgentPlatform, Tool, ToolResult } from "../dist/src/index.js";
import { expectAllDone, oneToolAgent, RUN_OPTIONS, Task } from "./support/one-tool-agent.mjs";

const PROCESSES = 10_000;
const LIMIT_BYTES = 1024 * 1024 * 1024;

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
      content: [{ type: "tool-call", toolCallId: "call-1", toolName: "note", input: `{"index":${waiting}}` }],
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    };
  },
  doStream() {
    throw new Error("not streamed");
  },
};

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);

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
  Array.from({ length: PROCESSES }, (_, index) => platform.runAgent("Worker", new Task(index), RUN_OPTIONS)),
);
while (waiting < PROCESSES) await new Promise((resolve) => setTimeout(resolve, 10));
const liveAfterMs = performance.now() - started;
globalThis.gc?.();
const live = process.memoryUsage();
peakRss = Math.max(peakRss, live.rss);
release();
const processes = await running;
const wallMs = performance.now() - started;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);

expectAllDone(processes);
const perProcess = (live.heapUsed - heapBefore) / PROCESSES;
const pass = peakRss < LIMIT_BYTES;
console.log(
  `\n${PROCESSES} concurrent agent processes, all live at once (each waiting in its first LLM call)`,
);
console.log(`all live after: ${liveAfterMs.toFixed(0)} ms; all completed after ${wallMs.toFixed(0)} ms`);
console.log(
  `heap per live process: ${(perProcess / 1024).toFixed(1)} KB (${perProcess.toFixed(0)} bytes: heap used ${mb(live.heapUsed)} MB with all live, ${mb(heapBefore)} MB before, after a full GC each)`,
);
console.log(
  `peak RSS:       ${mb(peakRss)} MB (RSS before ${mb(rssBefore)} MB); target < 1024 MB: ${pass ? "PASS" : "FAIL"}`,
);
if (!pass) process.exitCode = 1;
