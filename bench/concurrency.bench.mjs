// 1,000 concurrent agent processes, each running one PromptRunner interaction
// of 5 tool steps (then a final answer) on the scripted model, all on one
// platform and one shared model. Reports wall time and peak RSS, and checks
// that no process ever saw another's process, blackboard or tool-call context:
// the model's script and the tool both look at AgentProcess.current().
// Targets: < 2 s wall, < 300 MB peak RSS.
// Run: npm run bench (builds first), or node bench/concurrency.bench.mjs after a build.
import { AgentPlatform, AgentProcess, ProcessOptions, Tool, ToolResult } from "../dist/src/index.js";
import { ScriptedModel } from "../dist/src/testing/index.js";

const PROCESSES = 1_000;
const TOOL_STEPS = 5;

const violations = [];
const note = (message) => {
  if (violations.length < 20) violations.push(message);
};

// The model's reply depends only on the requesting process: five probe calls, then an answer.
function reply(request) {
  const process = AgentProcess.current();
  if (!process) {
    note("the model was called outside any process");
    return ScriptedModel.text("no process");
  }
  const step = request.prompt.filter((message) => message.role === "tool").length;
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

const model = new ScriptedModel(Array.from({ length: PROCESSES * (TOOL_STEPS + 1) }, () => reply));
const platform = AgentPlatform.create({ models: { main: model } });

let peakSampled = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakSampled = Math.max(peakSampled, process.memoryUsage().rss);
}, 5);
const rssBefore = process.memoryUsage().rss;
const start = performance.now();
const processes = await Promise.all(
  Array.from({ length: PROCESSES }, () =>
    platform.runInProcess(
      async (context) => {
        // Each process marks its own blackboard and context with its id; the probe checks both.
        context.blackboard.bind("owner", context.process.id);
        return context
          .ai()
          .withTool(probe)
          .withToolCallContext({ owner: context.process.id })
          .generateText("go");
      },
      { processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 10_000_000 }) },
    ),
  ),
);
const wallMs = performance.now() - start;
clearInterval(sampler);
const peakRss = Math.max(peakSampled, process.resourceUsage().maxRSS * 1024);

for (const agentProcess of processes) {
  if (agentProcess.status !== "completed")
    note(`${agentProcess.id} ended ${agentProcess.status}: ${agentProcess.statusReason}`);
  if (agentProcess.result !== `done ${agentProcess.id}`)
    note(`${agentProcess.id} got result ${agentProcess.result}`);
  const steps = agentProcess.blackboard.all(Number);
  if (steps.join(",") !== "0,1,2,3,4") note(`${agentProcess.id} has steps ${steps.join(",")}`);
  if (agentProcess.toolStats.get("probe")?.calls !== TOOL_STEPS)
    note(`${agentProcess.id} counted the wrong tool calls`);
  if (agentProcess.llmInvocations !== TOOL_STEPS + 1)
    note(`${agentProcess.id} counted ${agentProcess.llmInvocations} LLM calls`);
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
console.log(
  `\n${PROCESSES} concurrent processes x ${TOOL_STEPS} tool steps (+1 answer) on the scripted model`,
);
console.log(
  `wall time:      ${wallMs.toFixed(0)} ms (target < 2000 ms: ${wallMs < 2000 ? "met" : "MISSED"})`,
);
console.log(
  `LLM calls:      ${model.requests.length} (${(wallMs / model.requests.length).toFixed(3)} ms each, amortised)`,
);
console.log(
  `peak RSS:       ${mb(peakRss)} MB (target < 300 MB: ${peakRss < 300 * 1024 * 1024 ? "met" : "MISSED"}); RSS before: ${mb(rssBefore)} MB`,
);
console.log(
  `isolation:      ${violations.length === 0 ? "no process ever saw another's process, blackboard or context" : "VIOLATED"}`,
);
for (const violation of violations) console.log(`  - ${violation}`);
if (violations.length > 0) process.exitCode = 1;
