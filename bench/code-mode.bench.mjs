// Code mode against one tool call per turn, same run, same scripted model and
// tools: a 20-call aggregation (look up 20 orders, sum the refunds over a
// threshold). Measures the bytes of input sent to the model over the whole
// run (every request's messages and tool definitions) and the model calls;
// then the sandbox itself: warm start of a program, overhead per inner call
// (100 calls in a program against calling the tool directly), and the memory
// of a program's sandbox.
// Targets: >= 70% fewer input bytes, <= 2 model calls; <= 1 ms per inner call;
// warm start <= 20 ms.

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

// Sandbox start (warm) and per-call overhead.
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const run = (tool, source) => tool.call(JSON.stringify({ code: source }));
const empty = CodeModeTool.of("run_code", "", [getOrder]);
await run(empty, "return 1;");
// Programs come between model calls: the spare instance made after the last one is ready.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const starts = [];
const backToBack = [];
for (let i = 0; i < 20; i += 1) {
  await sleep(150);
  let t = performance.now();
  await run(empty, "return 1;");
  starts.push(performance.now() - t);
  t = performance.now();
  await run(empty, "return 1;");
  backToBack.push(performance.now() - t);
}
const CALLS = 100;
const loopSource = `let s = 0; for (let i = 1; i <= ${CALLS}; i++) s += (await tools.get_order({ id: i })).refund; return s;`;
const inSandbox = [];
const outside = [];
for (let round = 0; round < 7; round += 1) {
  await sleep(150);
  let t = performance.now();
  await run(empty, loopSource);
  inSandbox.push(performance.now() - t - median(starts));
  t = performance.now();
  for (let i = 1; i <= CALLS; i += 1) JSON.parse((await getOrder.call(JSON.stringify({ id: i }))).content);
  outside.push(performance.now() - t);
}
const perCall = (median(inSandbox) - median(outside)) / CALLS;
console.log(
  `sandbox warm start (runtime, context, program, result): median ${median(starts).toFixed(2)} ms (target <= 20 ms)`,
);
console.log(
  `sandbox start right after another program (instance made on the spot): median ${median(backToBack).toFixed(2)} ms`,
);
console.log(
  `overhead per inner call (gate + sandbox round trip, over calling the tool directly): ${perCall.toFixed(3)} ms (target <= 1 ms)`,
);
const limit = CodeModeTool.of("run_code", "", []).settings.memoryBytes;
console.log(
  `memory per program: its own WebAssembly memory, 16 MiB at start, capped at ${limit / 1048576} MiB (memoryBytes)`,
);
const ok = saved >= 0.7 && coded.requests.length <= 2 && perCall <= 1 && median(starts) <= 20;
console.log(ok ? "code-mode: all targets met" : "code-mode: a target was missed");
