// Concurrency with real latency: a model that answers every call after 200 ms;
// 1,000 concurrent agent processes (platform.runAgent), each making 6 LLM calls
// (5 tool calls, then the answer). Nothing may serialise behind a lock or a
// shared queue, so the whole run should take about as long as one process:
// the ideal is 6 x 200 ms = 1.2 s.
// Baseline, measured in the same run: the same 1,000 interactions on the same
// 200 ms model with no agent process around them (platform.ai() directly), so
// what the machine's load costs the bare loop and its timers is in the
// baseline too; one process alone is printed beside it.
// Target: 1,000 processes finish within 1.2x the bare interactions' wall time,
// judged on the median of the per-round ratios of RUNS rounds that alternate
// processes and baseline (which goes first flips every round), after a warm-up
// on a tenth of the load. On an idle machine the baseline is within a few
// percent of the ideal, so this is the old "1.2x the ideal" measured against
// what this machine does in this run; the ratio to the ideal is still printed.
// Run: npm run bench (builds first), or node --expose-gc bench/latency.bench.mjs after a build.
import { AgentPlatform, Tool, ToolResult } from "../dist/src/index.js";
import { ScriptedModel } from "../dist/src/testing/index.js";
import { expectAllDone, oneToolAgent, RUN_OPTIONS, Task } from "./support/one-tool-agent.mjs";

const PROCESSES = 1_000;
const TOOL_STEPS = 5;
const CALLS = TOOL_STEPS + 1;
const LATENCY_MS = 200;
const IDEAL_MS = CALLS * LATENCY_MS;
const RUNS = 7;

const lookup = Tool.create("lookup", "Looks something up", async (input) =>
  ToolResult.text(`found ${JSON.parse(input).step}`),
);
const researcher = oneToolAgent({
  name: "Researcher",
  description: "Looks things up five times, then answers",
  action: "research",
  tool: lookup,
  prompt: "research",
});

// Every call answers after LATENCY_MS: five lookups, then the answer.
function slowModel(processes) {
  return new ScriptedModel(
    Array.from({ length: processes * CALLS }, () => (request) => {
      const step = request.prompt.filter((message) => message.role === "tool").length;
      return step < TOOL_STEPS
        ? ScriptedModel.toolCall("lookup", { step }, { delayMs: LATENCY_MS })
        : ScriptedModel.text("done", { delayMs: LATENCY_MS });
    }),
  );
}

async function run(processes) {
  const model = slowModel(processes);
  const platform = AgentPlatform.create({ models: { main: model } });
  platform.deploy(researcher);
  const started = performance.now();
  const runs = await Promise.all(
    Array.from({ length: processes }, (_, index) =>
      platform.runAgent("Researcher", new Task(index), RUN_OPTIONS),
    ),
  );
  const wallMs = performance.now() - started;
  expectAllDone(runs);
  if (model.requests.length !== processes * CALLS)
    throw new Error(`expected ${processes * CALLS} LLM calls, got ${model.requests.length}`);
  return wallMs;
}

/** The baseline: the same interactions on the same model, with no agent process around them. */
async function runBare(processes) {
  const model = slowModel(processes);
  const platform = AgentPlatform.create({ models: { main: model } });
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: processes }, (_, index) =>
      platform.ai().withTool(lookup).generateText(`research ${index}`),
    ),
  );
  const wallMs = performance.now() - started;
  if (answers.some((answer) => answer !== "done")) throw new Error("a bare interaction did not answer done");
  if (model.requests.length !== processes * CALLS)
    throw new Error(`expected ${processes * CALLS} LLM calls, got ${model.requests.length}`);
  return wallMs;
}

/** Wall and CPU milliseconds of `fn` after a full GC. */
async function timed(fn) {
  globalThis.gc?.();
  const cpuStart = process.cpuUsage();
  const wallMs = await fn();
  const cpu = process.cpuUsage(cpuStart);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

await run(PROCESSES / 10); // warm the JIT on a tenth of the load, as the concurrency bench does
await runBare(PROCESSES / 10);
const singleMs = await run(1);
// RUNS rounds, each printed; the target applies to the median of the per-round ratios
// (one run is at the mercy of a GC, a JIT tier-up or another program's burst).
const rounds = [];
for (let round = 0; round < RUNS; round++) {
  const processesFirst = round % 2 === 0;
  const first = await timed(() => (processesFirst ? run(PROCESSES) : runBare(PROCESSES)));
  const second = await timed(() => (processesFirst ? runBare(PROCESSES) : run(PROCESSES)));
  const processes = processesFirst ? first : second;
  const bare = processesFirst ? second : first;
  rounds.push({ processes, bare, ratio: processes.wallMs / bare.wallMs });
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ratio = median(rounds.map((one) => one.ratio));
const wallMs = median(rounds.map((one) => one.processes.wallMs));
const bareMs = median(rounds.map((one) => one.bare.wallMs));
const cpuMs = median(rounds.map((one) => one.processes.cpuMs));
const bareCpuMs = median(rounds.map((one) => one.bare.cpuMs));
const TARGET = 1.2;
const pass = ratio <= TARGET;
const ideal = (ms) => `x${(ms / IDEAL_MS).toFixed(3)} the ideal`;
console.log(
  `\n${PROCESSES} concurrent agent processes x ${CALLS} LLM calls, each answered after ${LATENCY_MS} ms (ideal ${IDEAL_MS} ms)`,
);
console.log(`one process alone: ${singleMs.toFixed(0)} ms (${ideal(singleMs)})`);
console.log(
  `rounds (processes / bare, wall): ${rounds.map((one) => `${one.processes.wallMs.toFixed(0)} / ${one.bare.wallMs.toFixed(0)} ms (x${one.ratio.toFixed(3)})`).join(", ")}`,
);
console.log(
  `baseline:  the same ${PROCESSES} interactions with no agent process: ${bareMs.toFixed(0)} ms wall (${ideal(bareMs)}), ${bareCpuMs.toFixed(0)} ms CPU (medians of ${RUNS})`,
);
console.log(
  `${PROCESSES} processes: ${wallMs.toFixed(0)} ms wall (${ideal(wallMs)}), ${cpuMs.toFixed(0)} ms CPU (medians of ${RUNS}); ` +
    `processes / baseline: x${ratio.toFixed(3)} wall, median of the ${RUNS} rounds' ratios (target <= ${TARGET}x: ${pass ? "PASS" : "FAIL"})`,
);
if (!pass) process.exitCode = 1;
