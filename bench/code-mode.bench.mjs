// Code mode against one tool call per turn, same run, same scripted model and
// tools: a 20-call aggregation (look up 20 orders, sum the refunds over a
// threshold). Measures the bytes of input sent to the model over the whole
// run (every request's messages and tool definitions) and the model calls;
// then the sandbox itself, each against a baseline of the same run: a program's
// warm start against a bare QuickJS runtime and context with no tools, and an
// inner call (1,000 calls in a program) against calling the tool directly.
// Targets: >= 70% fewer input bytes, <= 2 model calls; warm start <= 5x the bare
// context (measured x2.4-x3.0); an inner call <= 30x a direct tool.call (measured
// x10-x12: 0.05-0.19 ms against 0.005-0.009 ms). The absolute times are printed, not
// judged (the old targets were <= 20 ms and <= 1 ms over the direct call).

import { z } from "zod";
import { CodeModeTool, runToolLoop, Tool } from "../dist/src/index.js";
import { ScriptedModel } from "../dist/src/testing/index.js";

const ORDERS = 20;
const THRESHOLD = 50;
const prompt = [
  {
    role: "user",
    content: [{ type: "text", text: `Sum the refunds over ${THRESHOLD} of orders 1 to ${ORDERS}.` }],
  },
];
const customers = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"];
const getOrder = Tool.fromFunction(
  "get_order",
  "Looks up an order by id: customer, items, status and the refund owed",
  z.object({ id: z.number().int().describe("The order id") }),
  z.any(),
  async ({ id }) => ({
    id,
    customer: customers[id % customers.length],
    status: id % 3 === 0 ? "returned" : "delivered",
    items: [
      { sku: `SKU-${id}-A`, title: "Noise-cancelling headphones", quantity: 1, price: 199.0 },
      { sku: `SKU-${id}-B`, title: "USB-C charging cable, 2 m", quantity: 2, price: 12.5 },
    ],
    shippingAddress: { street: `${id} Main Street`, city: "Lisbon", postcode: "1100-001", country: "PT" },
    refund: id * 7,
  }),
);

/** Bytes of what the model is sent over a run: every request's messages and tool definitions. */
const inputBytes = (model) =>
  model.requests.reduce(
    (sum, request) => sum + JSON.stringify({ prompt: request.prompt, tools: request.tools }).length,
    0,
  );

// Direct: one get_order call per turn, then the answer.
const direct = new ScriptedModel([
  ...Array.from({ length: ORDERS }, (_, n) => ScriptedModel.toolCall("get_order", { id: n + 1 })),
  ScriptedModel.text("13 orders, 1274 in refunds."),
]);
await runToolLoop({ model: direct, prompt, tools: [getOrder], maxIterations: ORDERS + 2 });

// Code mode: one program, then the answer.
const program = `const orders = await Promise.all(Array.from({ length: ${ORDERS} }, (_, i) => tools.get_order({ id: i + 1 })));
const big = orders.filter((o) => o.refund > ${THRESHOLD});
return { count: big.length, total: big.reduce((s, o) => s + o.refund, 0) };`;
const code = CodeModeTool.of("run_code", "Works with orders.", [getOrder]);
const coded = new ScriptedModel([
  ScriptedModel.toolCall("run_code", { code: program }),
  ScriptedModel.text("13 orders, 1274 in refunds."),
]);
await runToolLoop({ model: coded, prompt, tools: [code] });
const answer = coded.requests[1].toolResults[0].output.value;
if (answer !== '{"count":13,"total":1274}') throw new Error(`code mode answered ${answer}`);

const directBytes = inputBytes(direct);
const codeBytes = inputBytes(coded);
const saved = 1 - codeBytes / directBytes;
console.log(
  `aggregation (${ORDERS} orders): direct ${direct.requests.length} model calls, ${directBytes} input bytes`,
);
console.log(
  `aggregation (${ORDERS} orders): code mode ${coded.requests.length} model calls, ${codeBytes} input bytes`,
);
console.log(
  `input bytes saved: ${(saved * 100).toFixed(1)}% (target >= 70%), model calls ${coded.requests.length} (target <= 2)`,
);

// Sandbox start (warm) and per-call overhead, each against a baseline of the same run.
// Start: a program (runtime, context, prelude, tool bindings, program, result) against
// a bare QuickJS runtime and context with no tools evaluating `1` on an instance also
// made in advance (code mode keeps one spare instance ready), alternating, the median
// of the rounds' ratios. Inner call: 1,000 calls in a program against the same 1,000
// calls of `tool.call` directly, alternating, the median of the rounds' ratios.
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const run = (tool, source) => tool.call(JSON.stringify({ code: source }));
const empty = CodeModeTool.of("run_code", "", [getOrder]);
await run(empty, "return 1;");
const [core, variantModule] = await Promise.all([
  import("quickjs-emscripten-core"),
  import("@jitl/quickjs-wasmfile-release-sync"),
]);
const bareInstance = () => core.newQuickJSWASMModuleFromVariant(variantModule.default);
const bareStart = (module) => {
  const runtime = module.newRuntime();
  const vm = runtime.newContext();
  const result = vm.unwrapResult(vm.evalCode("1"));
  const value = vm.getNumber(result);
  result.dispose();
  vm.dispose();
  runtime.dispose();
  if (value !== 1) throw new Error("bare QuickJS did not answer 1");
};
bareStart(await bareInstance());
// Programs come between model calls: the spare instance made after the last one is ready.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const starts = [];
const bareStarts = [];
const startRatios = [];
const backToBack = [];
for (let i = 0; i < 21; i += 1) {
  const module = await bareInstance();
  await sleep(150);
  const timeOurs = async () => {
    const t = performance.now();
    await run(empty, "return 1;");
    return performance.now() - t;
  };
  const timeBare = () => {
    const t = performance.now();
    bareStart(module);
    return performance.now() - t;
  };
  let ours;
  let bare;
  if (i % 2 === 0) {
    ours = await timeOurs();
    bare = timeBare();
  } else {
    bare = timeBare();
    ours = await timeOurs();
  }
  starts.push(ours);
  bareStarts.push(bare);
  startRatios.push(ours / bare);
  const t = performance.now();
  await run(empty, "return 1;");
  backToBack.push(performance.now() - t);
}
// 1,000 calls a round on each side (the direct side's 1,000 calls five times over), so a
// round lasts long enough on both sides for a busy machine's scheduling to average out.
const CALLS = 1_000;
const DIRECT_REPEATS = 5;
const many = CodeModeTool.of("run_code", "", [getOrder], { maxToolCalls: CALLS });
await run(many, "return 1;");
const loopSource = `let s = 0; for (let i = 1; i <= ${CALLS}; i++) s += (await tools.get_order({ id: i })).refund; return s;`;
const inSandbox = [];
const outside = [];
const callRatios = [];
for (let round = 0; round < 9; round += 1) {
  await sleep(150);
  const timeSandbox = async () => {
    const t = performance.now();
    const result = await run(many, loopSource);
    const expected = String((7 * CALLS * (CALLS + 1)) / 2);
    if (result.content !== expected)
      throw new Error(`the loop program answered ${result.content.slice(0, 200)}`);
    return performance.now() - t - median(starts);
  };
  const timeDirect = async () => {
    const t = performance.now();
    for (let repeat = 0; repeat < DIRECT_REPEATS; repeat += 1)
      for (let i = 1; i <= CALLS; i += 1)
        JSON.parse((await getOrder.call(JSON.stringify({ id: i }))).content);
    return (performance.now() - t) / DIRECT_REPEATS;
  };
  let sandbox;
  let direct;
  if (round % 2 === 0) {
    sandbox = await timeSandbox();
    direct = await timeDirect();
  } else {
    direct = await timeDirect();
    sandbox = await timeSandbox();
  }
  inSandbox.push(sandbox);
  outside.push(direct);
  callRatios.push(sandbox / direct);
}
const START_TARGET = 5;
const CALL_TARGET = 30;
const startRatio = median(startRatios);
const callRatio = median(callRatios);
const perCall = (median(inSandbox) - median(outside)) / CALLS;
console.log(
  `sandbox warm start (runtime, context, program, result): median ${median(starts).toFixed(2)} ms; ` +
    `a bare QuickJS runtime + context evaluating 1, no tools: ${median(bareStarts).toFixed(3)} ms`,
);
console.log(
  `sandbox start against the bare context: x${startRatio.toFixed(1)} (median of ${startRatios.length} alternating rounds' ratios); target <= ${START_TARGET}x: ${startRatio <= START_TARGET ? "PASS" : "FAIL"}`,
);
console.log(
  `sandbox start right after another program (instance made on the spot): median ${median(backToBack).toFixed(2)} ms (printed, not judged)`,
);
console.log(
  `an inner call (gate + sandbox round trip): ${(median(inSandbox) / CALLS).toFixed(3)} ms; the same tool.call directly: ${(median(outside) / CALLS).toFixed(3)} ms; ` +
    `overhead ${perCall.toFixed(3)} ms per call (printed; was the target <= 1 ms)`,
);
console.log(
  `inner call against a direct tool.call: x${callRatio.toFixed(1)} (median of ${callRatios.length} alternating rounds' ratios); target <= ${CALL_TARGET}x: ${callRatio <= CALL_TARGET ? "PASS" : "FAIL"}`,
);
const limit = CodeModeTool.of("run_code", "", []).settings.memoryBytes;
console.log(
  `memory per program: its own WebAssembly memory, 16 MiB at start, capped at ${limit / 1048576} MiB (memoryBytes)`,
);
const ok =
  saved >= 0.7 && coded.requests.length <= 2 && callRatio <= CALL_TARGET && startRatio <= START_TARGET;
console.log(ok ? "code-mode: all targets met" : "code-mode: a target was missed");
if (!ok) process.exitCode = 1;
