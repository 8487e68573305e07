// 1,000 concurrent agent processes (platform.runAgent, planner included), each
// running one action whose PromptRunner interaction makes 5 tool calls (then a
// final answer) on the scripted model; one platform, one shared model.
// Reports wall time, CPU time and peak RSS, and checks that no process ever saw
// another's process, blackboard or tool-call context: the model's script and
// the tool both look at AgentProcess.current(), and every check compares it
// with a value the process set itself (replacing the AsyncLocalStorage in
// dist/src/tool/ambient-process.js by a global makes this bench fail).
// Baseline, measured in the same run: the same 1,000 interactions on the same
// kind of model with no agent process around them (what the process layer costs).
// Targets: < 2 s wall, < 300 MB peak RSS (wall time depends on machine load:
// compare it with the CPU time printed beside it).
// Process-layer cost: the same 1,000 interactions (same model replies, same
// tool, no isolation checks on either side) run by 1,000 agent processes and
// bare, alternating for ROUNDS (9) rounds (which goes first alternates too); the
// verdict is the median of the rounds' CPU ratios (each round's two sides run
// back to back, so a burst of other load moves one round, not the verdict).
// Target: processes <= 1.5x the CPU of the bare interactions.
// Run: npm run bench (builds first), or node --expose-gc bench/concurrency.bench.mjs after a build.
import {
  AgentPlatform,
  AgentProcess,
  defineAgent,
  ProcessOptions,
  Tool,
  ToolResult,
} from "../dist/src/index.js";
import { ScriptedModel } from "../dist/src/testing/index.js";

const PROCESSES = 1_000;
const TOOL_STEPS = 5;

const violations = [];
let violationCount = 0;
const note = (message) => {
  violationCount++;
  if (violations.length < 20) violations.push(message);
};

class Task {
  constructor(index) {
    this.index = index;
  }
}
class Report {
  constructor(index, text) {
    this.index = index;
    this.text = text;
  }
}

const toolSteps = (request) => request.prompt.filter((message) => message.role === "tool").length;

// The model's reply depends only on the requesting process: five probe calls, then an answer.
function reply(request) {
  const process = AgentProcess.current();
  if (!process) {
    note("the model was called outside any process");
    return ScriptedModel.text("no process");
  }
  const step = toolSteps(request);
  return step < TOOL_STEPS
    ? ScriptedModel.toolCall("probe", { owner: process.id, step })
    : ScriptedModel.text(`done ${process.id}`);
}

const probe = Tool.create("probe", "Checks which process runs the call", async (input, context) => {
  const { owner, step } = JSON.parse(input);
  const process = AgentProcess.current();
  if (process?.id !== owner) note(`probe for ${owner} ran in process ${process?.id}`);
  if (context.get("owner") !== owner) note(`probe for ${owner} got context owner ${context.get("owner")}`);
  const marker = process?.blackboard.get("owner");
  if (marker !== owner) note(`probe for ${owner} saw blackboard of ${marker}`);
  const steps = process?.blackboard.all(Number) ?? [];
  if (steps.length !== step) note(`probe for ${owner} saw ${steps.length} steps, expected ${step}`);
  await new Promise((resolve) => setImmediate(resolve)); // interleave the processes
  process?.blackboard.add(step);
  return ToolResult.text(`step ${step} ok`);
});

const investigator = defineAgent({
  name: "Investigator",
  description: "Calls the probe five times and reports",
  actions: [
    {
      name: "investigate",
      input: Task,
      output: Report,
      achievesGoal: { description: "A report" },
      run: async (task, context) => {
        // Each process marks its own blackboard and context with its id; the probe checks both.
        context.blackboard.bind("owner", context.process.id);
        const text = await context
          .ai()
          .withTool(probe)
          .withToolCallContext({ owner: context.process.id })
          .generateText(`investigate ${task.index}`);
        return new Report(task.index, text);
      },
    },
  ],
});

const options = { processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 10_000_000 }) };
function runAgents(count) {
  const model = new ScriptedModel(Array.from({ length: count * (TOOL_STEPS + 1) }, () => reply));
  const platform = AgentPlatform.create({ models: { main: model } });
  platform.deploy(investigator);
  const runs = Array.from({ length: count }, (_, index) =>
    platform.runAgent("Investigator", new Task(index), options),
  );
  return { model, processes: Promise.all(runs) };
}

// Baseline: the same interactions with no agent process around them.
function bareModel(count) {
  return new ScriptedModel(
    Array.from({ length: count * (TOOL_STEPS + 1) }, () => (request) => {
      const step = toolSteps(request);
      return step < TOOL_STEPS ? ScriptedModel.toolCall("bare_probe", { step }) : ScriptedModel.text("done");
    }),
  );
}
function runBare(count) {
  const platform = AgentPlatform.create({ models: { main: bareModel(count) } });
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      platform.ai().withTool(bareProbe).generateText(`investigate ${index}`),
    ),
  );
}
const bareProbe = Tool.create("bare_probe", "Answers", async (input) => {
  await new Promise((resolve) => setImmediate(resolve));
  return ToolResult.text(`step ${JSON.parse(input).step} ok`);
});

// The process-layer comparison: one agent whose action runs exactly the bare interaction.
const runner = defineAgent({
  name: "Runner",
  description: "Runs the baseline's interaction in a process",
  actions: [
    {
      name: "interact",
      input: Task,
      output: Report,
      achievesGoal: { description: "A report" },
      run: async (task, context) =>
        new Report(
          task.index,
          await context.ai().withTool(bareProbe).generateText(`investigate ${task.index}`),
        ),
    },
  ],
});
function runPlainAgents(count) {
  const platform = AgentPlatform.create({ models: { main: bareModel(count) } });
  platform.deploy(runner);
  return Promise.all(
    Array.from({ length: count }, (_, index) => platform.runAgent("Runner", new Task(index), options)),
  );
}

// Warm the JIT on every path (a tenth of the load) so no measurement pays for compilation.
await runAgents(PROCESSES / 10).processes;
await runBare(PROCESSES / 10);
await runPlainAgents(PROCESSES / 10);
if (violationCount > 0) throw new Error(`isolation violated while warming up: ${violations.join("; ")}`);

globalThis.gc?.();
let peakSampled = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peakSampled = Math.max(peakSampled, process.memoryUsage.rss());
}, 5);
const rssBefore = process.memoryUsage.rss();
const cpuBefore = process.cpuUsage();
const start = performance.now();
const { model, processes: running } = runAgents(PROCESSES);
const processes = await running;
const wallMs = performance.now() - start;
const cpuMs = cpuTimeMs(process.cpuUsage(cpuBefore));
clearInterval(sampler);
const peakRss = Math.max(peakSampled, process.resourceUsage().maxRSS * 1024);

processes.forEach((agentProcess, index) => {
  const id = agentProcess.id;
  if (agentProcess.status !== "completed")
    note(`${id} ended ${agentProcess.status}: ${agentProcess.statusReason}`);
  const result = agentProcess.result;
  if (!(result instanceof Report) || result.index !== index || result.text !== `done ${id}`)
    note(`${id} (task ${index}) got result ${JSON.stringify(result)}`);
  if (agentProcess.blackboard.last(Task)?.index !== index) note(`${id} has another process's task`);
  const steps = agentProcess.blackboard.all(Number);
  if (steps.join(",") !== "0,1,2,3,4") note(`${id} has steps ${steps.join(",")}`);
  if (agentProcess.toolStats.get("probe")?.calls !== TOOL_STEPS) note(`${id} counted the wrong tool calls`);
  if (agentProcess.llmInvocations !== TOOL_STEPS + 1)
    note(`${id} counted ${agentProcess.llmInvocations} LLM calls`);
});
if (new Set(processes.map((agentProcess) => agentProcess.id)).size !== PROCESSES)
  note("two processes share an id");

// Process-layer cost: alternate plain agent processes and bare interactions, ROUNDS each.
const ROUNDS = 9;
const layer = { agents: [], bare: [], agentsWall: [], bareWall: [] };
async function timed(run) {
  globalThis.gc?.();
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const results = await run();
  return { results, cpuMs: cpuTimeMs(process.cpuUsage(cpuStart)), wallMs: performance.now() - wallStart };
}
for (let round = 0; round < ROUNDS; round++) {
  // Which side goes first alternates, so neither always inherits the other's garbage.
  const agentsFirst = round % 2 === 0;
  const first = await timed(() => (agentsFirst ? runPlainAgents(PROCESSES) : runBare(PROCESSES)));
  const second = await timed(() => (agentsFirst ? runBare(PROCESSES) : runPlainAgents(PROCESSES)));
  const agents = agentsFirst ? first : second;
  const bare = agentsFirst ? second : first;
  if (agents.results.some((run) => run.status !== "completed" || run.result?.text !== "done"))
    note("a plain agent process did not complete with the interaction's answer");
  if (bare.results.some((text) => text !== "done")) note("the baseline's interactions did not all finish");
  layer.agents.push(agents.cpuMs);
  layer.agentsWall.push(agents.wallMs);
  layer.bare.push(bare.cpuMs);
  layer.bareWall.push(bare.wallMs);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const bareCpuMs = median(layer.bare);
const bareWallMs = median(layer.bareWall);
const layerCpuRatio = median(layer.agents.map((cpuMs, round) => cpuMs / layer.bare[round]));

function cpuTimeMs(usage) {
  return (usage.user + usage.system) / 1000;
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
const met = (ok) => (ok ? "met" : "MISSED");
console.log(
  `\n${PROCESSES} concurrent agent processes (runAgent) x ${TOOL_STEPS} tool steps (+1 answer) on the scripted model`,
);
console.log(
  `wall time:      ${wallMs.toFixed(0)} ms (target < 2000 ms: ${met(wallMs < 2000)}); CPU time ${cpuMs.toFixed(0)} ms`,
);
console.log(
  `LLM calls:      ${model.requests.length} (${(wallMs / model.requests.length).toFixed(3)} ms each, amortised)`,
);
console.log(
  `peak RSS:       ${mb(peakRss)} MB (target < 300 MB: ${met(peakRss < 300 * 1024 * 1024)}); RSS before: ${mb(rssBefore)} MB`,
);
console.log(
  `baseline:       the same ${PROCESSES} interactions with no agent process (and no isolation checks): ${bareWallMs.toFixed(0)} ms wall, ${bareCpuMs.toFixed(0)} ms CPU (median of ${ROUNDS})`,
);
const layerPass = layerCpuRatio <= 1.5;
console.log(
  `process layer:  the same interactions in ${PROCESSES} agent processes: ${median(layer.agents).toFixed(0)} ms CPU, ${median(layer.agentsWall).toFixed(0)} ms wall (median of ${ROUNDS}, alternating with the baseline); ` +
    `processes / baseline: x${layerCpuRatio.toFixed(2)} CPU, median of the rounds' ratios (target <= 1.5x: ${layerPass ? "PASS" : "FAIL"})`,
);
if (!layerPass) process.exitCode = 1;
console.log(
  `isolation:      ${violationCount === 0 ? "no process ever saw another's process, blackboard, context or task" : `VIOLATED (${violationCount} times)`}`,
);
for (const violation of violations) console.log(`  - ${violation}`);
if (violationCount > 0) process.exitCode = 1;
