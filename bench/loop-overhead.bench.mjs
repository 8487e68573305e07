// Tool-loop overhead per step: embabel-ts runToolLoop vs the AI SDK's generateText,
// on the same zero-latency MockLanguageModelV3, with 50 zod tools and 10 tool steps
// (11 LLM calls per run). Target: ours <= 0.25x the AI SDK's per-step time.
import { trace } from "@opentelemetry/api";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { InputSchema, runToolLoop, Tool, ToolMetadata, ToolResult } from "../dist/src/index.js";

const TOOLS = 50;
const TOOL_STEPS = 10;
const WARMUP_MS = 1_000;
const ROUND_MS = 500;
const ROUNDS = 5;
const STEPS = TOOL_STEPS + 1;

const schemas = Array.from({ length: TOOLS }, (_, index) =>
  z.object({
    query: z.string().describe(`What to look up in source ${index}`),
    limit: z.number().int().min(1).max(100).optional().describe("Maximum results"),
    mode: z.enum(["fast", "thorough"]).optional().describe("Search mode"),
  }),
);
const names = schemas.map((_, index) => `search_source_${index}`);

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

// Stateless: decides from the prompt how many tool results it has seen.
const model = new MockLanguageModelV3({
  doGenerate: async (options) => {
    let seen = 0;
    for (const message of options.prompt) if (message.role === "tool") seen += 1;
    if (seen < TOOL_STEPS) {
      return {
        content: [
          {
            type: "tool-call",
            toolCallId: `call-${seen}`,
            toolName: names[(seen * 7) % TOOLS],
            input: `{"query":"step ${seen}","limit":5}`,
          },
        ],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    }
    return {
      content: [{ type: "text", text: "done" }],
      finishReason: { unified: "stop", raw: undefined },
      usage,
      warnings: [],
    };
  },
});
// MockLanguageModelV3 records every call; drop the records so memory stays flat.
const clearRecords = () => {
  model.doGenerateCalls.length = 0;
};

const ourTools = schemas.map((schema, index) =>
  Tool.of(names[index], `Searches source ${index}`, InputSchema.fromZod(schema), ToolMetadata.DEFAULT, () =>
    ToolResult.text(`results from source ${index}`),
  ),
);
const sdkTools = Object.fromEntries(
  schemas.map((schema, index) => [
    names[index],
    tool({
      description: `Searches source ${index}`,
      inputSchema: schema,
      execute: async () => `results from source ${index}`,
    }),
  ]),
);
const prompt = [
  { role: "system", content: "You are a research assistant." },
  { role: "user", content: [{ type: "text", text: "Find everything." }] },
];

async function ours() {
  const result = await runToolLoop({ model, prompt, tools: ourTools });
  if (result.text !== "done" || result.iterations !== STEPS)
    throw new Error(`unexpected loop result ${result.iterations}`);
}

async function sdk() {
  const result = await generateText({
    model,
    system: "You are a research assistant.",
    prompt: "Find everything.",
    tools: sdkTools,
    stopWhen: stepCountIs(STEPS),
  });
  if (result.text !== "done" || result.steps.length !== STEPS)
    throw new Error(`unexpected SDK result ${result.steps.length}`);
}

/** Median per-step ms over ROUNDS rounds of about ROUND_MS each, after WARMUP_MS of warm-up. */
async function measure(run) {
  const warmUntil = performance.now() + WARMUP_MS;
  while (performance.now() < warmUntil) {
    await run();
    clearRecords();
  }
  globalThis.gc?.();
  const samples = [];
  let runs = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    let count = 0;
    while (performance.now() - started < ROUND_MS) {
      await run();
      clearRecords();
      count += 1;
    }
    runs += count;
    samples.push((performance.now() - started) / count / STEPS);
  }
  samples.sort((left, right) => left - right);
  return { perStep: samples[Math.floor(ROUNDS / 2)], runs };
}

// Alternate to spread any drift (JIT, GC) fairly between the two.
const sdkFirst = await measure(sdk);
const oursFirst = await measure(ours);
const sdkSecond = await measure(sdk);
const oursSecond = await measure(ours);
const sdkPerStep = Math.min(sdkFirst.perStep, sdkSecond.perStep);
const oursPerStep = Math.min(oursFirst.perStep, oursSecond.perStep);
const ratio = oursPerStep / sdkPerStep;

console.log(
  `loop overhead: ${TOOLS} zod tools, ${TOOL_STEPS} tool steps (${STEPS} LLM calls per run), median of ${ROUNDS} rounds`,
);
console.log(
  `  AI SDK generateText : ${sdkPerStep.toFixed(4)} ms/step  (${sdkFirst.runs + sdkSecond.runs} runs)`,
);
console.log(
  `  embabel-ts loop     : ${oursPerStep.toFixed(4)} ms/step  (${oursFirst.runs + oursSecond.runs} runs)`,
);
console.log(
  `  ratio (ours / SDK)  : ${ratio.toFixed(4)}x  (target <= 0.25x) ${ratio <= 0.25 ? "PASS" : "FAIL"}`,
);

// The loop opens one OpenTelemetry span per LLM call and per tool call; with no
// SDK registered they are no-op spans. Their cost, measured on their own:
const tracer = trace.getTracer("embabel-ts");
const SPANS = 1_000_000;
const spanStarted = performance.now();
for (let index = 0; index < SPANS; index += 1) {
  const span = tracer.startSpan("embabel.tool.call");
  if (span.isRecording()) span.setAttribute("never", 1);
  span.end();
}
const spanNs = ((performance.now() - spanStarted) * 1e6) / SPANS;
console.log(
  `  no-op span (no OTel SDK): ${spanNs.toFixed(0)} ns each, ~${(((2 * spanNs) / 1e6 / oursPerStep) * 100).toFixed(1)}% of our per-step time (2 spans/step)`,
);
if (ratio > 0.25) process.exitCode = 1;
