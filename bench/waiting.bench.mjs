// What a process waiting for a person costs while it waits, in-process: 2,000
// agent processes each stop on a tool needing approval (one LLM round, the
// tool's call pending); heap measured after a full GC, against the same 2,000
// processes run to the end (baseline, same run). Also counts the active
// timers and handles while they all wait: a wait holds no timer or socket
// (a request with a timeoutMs adds one unref'd timer to its process).
// Then every request is answered and each process must complete.
// Target: heap per waiting process <= 1.5x a finished one's (same run), 0 timers
// added; the KB each are printed, not judged (the old target was < 20 KB).
// Run: npm run build && node --expose-gc bench/waiting.bench.mjs

import { z } from "zod";
import {
  AgentPlatform,
  defineAgent,
  domainType,
  InProcessRunner,
  InputSchema,
  Param,
  Tool,
  ToolResult,
} from "../dist/src/index.js";
import { ScriptedModel } from "../dist/src/testing/index.js";

const PROCESSES = 2_000;
const Ticket = domainType("Ticket", z.object({ n: z.number() }));
const Reply = domainType("Reply", z.object({ text: z.string() }));

const refund = Tool.requireApproval(
  Tool.create("refund", "Refunds", InputSchema.of(Param.integer("cents", "Amount")), async (input) =>
    ToolResult.text(`refunded ${input}`),
  ),
);
const plain = Tool.create(
  "refund",
  "Refunds",
  InputSchema.of(Param.integer("cents", "Amount")),
  async (input) => ToolResult.text(`refunded ${input}`),
);

const reply = (request) =>
  request.toolResults.length === 0
    ? ScriptedModel.toolCall("refund", { cents: 5 })
    : ScriptedModel.text("done");

function agentWith(tool) {
  return defineAgent({
    name: "Desk",
    description: "Refunds",
    actions: [
      {
        name: "answer",
        input: Ticket,
        output: Reply,
        achievesGoal: { description: "Answered" },
        run: async (_ticket, context) => ({
          text: await context.ai().withTools([tool]).generateText("refund"),
        }),
      },
    ],
  });
}

function platformFor() {
  const model = new ScriptedModel(Array.from({ length: PROCESSES * 3 }, () => reply));
  return AgentPlatform.create({
    models: { main: model },
    runner: new InProcessRunner({ keepFinished: PROCESSES }),
  });
}

const heap = () => {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};
const handles = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

// Baseline: the same processes, run to the end (kept by the caller).
const plainAgent = agentWith(plain);
const refundAgent = agentWith(refund);
const basePlatform = platformFor();
const base0 = heap();
const finished = await Promise.all(
  Array.from({ length: PROCESSES }, (_, n) => basePlatform.runAgent(plainAgent, Ticket.create({ n }))),
);
const base1 = heap();

const platform = platformFor();
const timersBefore = handles();
const heap0 = heap();
const waiting = await Promise.all(
  Array.from({ length: PROCESSES }, (_, n) => platform.runAgent(refundAgent, Ticket.create({ n }))),
);
const heap1 = heap();
const timersWhileWaiting = handles() - timersBefore;
const notWaiting = waiting.filter((process) => process.status !== "waiting").length;
const perWaiting = (heap1 - heap0) / PROCESSES;
const perFinished = (base1 - base0) / PROCESSES;
const done = await Promise.all(
  waiting.map((process) => platform.respond(process.id, "r1", { approved: true })),
);
const notCompleted = done.filter((process) => process.status !== "completed").length;

console.log(
  `${PROCESSES} waiting processes: ${(perWaiting / 1024).toFixed(1)} KB heap each (finished processes: ${(perFinished / 1024).toFixed(1)} KB each; ratio ${(perWaiting / perFinished).toFixed(2)}x)`,
);
console.log(
  `timers added while they wait: ${timersWhileWaiting}; not waiting: ${notWaiting}; not completed after the answers: ${notCompleted}`,
);
console.log(`kept alive so no GC frees them: ${finished.length + waiting.length} processes`);
const RATIO_TARGET = 1.5;
const ratio = perWaiting / perFinished;
console.log(
  `heap per waiting process against a finished one: x${ratio.toFixed(2)}; target <= ${RATIO_TARGET}x: ${ratio <= RATIO_TARGET ? "PASS" : "FAIL"}`,
);
const ok = ratio <= RATIO_TARGET && timersWhileWaiting === 0 && notWaiting === 0 && notCompleted === 0;
if (!ok) {
  console.error("waiting.bench: target missed");
  process.exit(1);
}
