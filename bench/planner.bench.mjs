// GOAP planning time as the number of actions grows (100, 1,000, 10,000) on
// chain-shaped domains: action i needs c<i> and makes c<i+1>; the goal is the
// last condition, so every action is relevant and the plan has n steps. Also
// a "wide" domain: n actions of which only a 10-step chain is relevant.
// Target: 10,000 actions in < 50 ms, growing about linearly. The process plans
// again after every action, so the target applies to a plan call on a compiled
// planner (median of 15); compile and the first call per goal (medians of 5
// fresh planners) are printed apart.
// Run: npm run bench (builds first), or node bench/planner.bench.mjs after a build.
import { GoapPlanner } from "../dist/src/index.js";

const SIZES = [100, 1_000, 10_000];
const RUNS = 15;

function chain(n) {
  return Array.from({ length: n }, (_, i) => ({
    name: `a${i}`,
    preconditions: { [`c${i}`]: true, [`hasRun:a${i}`]: false },
    effects: { [`c${i + 1}`]: true, [`hasRun:a${i}`]: true },
  }));
}

function wide(n) {
  const relevant = chain(10);
  const noise = Array.from({ length: n - 10 }, (_, i) => ({
    name: `noise${i}`,
    preconditions: { [`n${i}`]: true },
    effects: { [`n${i + 1}`]: true },
  }));
  return [...noise, ...relevant];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const FRESH = 5;

function planChecked(planner, start, goal, expectedLength) {
  const t0 = performance.now();
  const result = planner.plan(start, goal);
  const elapsed = performance.now() - t0;
  if (result.kind !== "plan" || result.actions.length !== expectedLength) {
    throw new Error(`unexpected planner result: ${result.kind} ${result.reason ?? result.actions.length}`);
  }
  return elapsed;
}

function measure(actions, start, goal, expectedLength) {
  // A new planner compiles the domain, and its first call per goal computes (and caches) the relevant actions.
  const compiles = [];
  const firsts = [];
  let planner;
  for (let fresh = 0; fresh < FRESH; fresh++) {
    globalThis.gc?.();
    const compileStart = performance.now();
    planner = GoapPlanner.create(actions);
    compiles.push(performance.now() - compileStart);
    firsts.push(planChecked(planner, start, goal, expectedLength));
  }
  // The process plans again after every action: later calls on the same planner.
  const replans = Array.from({ length: RUNS }, () => planChecked(planner, start, goal, expectedLength));
  return {
    compileMs: median(compiles),
    firstMs: median(firsts),
    planMs: median(replans),
    bestMs: Math.min(...replans),
  };
}

function report(title, rows) {
  console.log(`\n${title}`);
  console.log(
    "actions    compile (ms)   first plan (ms)   replan median (ms)   replan best (ms)   growth of best vs previous size",
  );
  let previous;
  for (const row of rows) {
    const growth = previous
      ? `x${(row.bestMs / previous.bestMs).toFixed(1)} for x${row.n / previous.n} actions`
      : "";
    console.log(
      `${String(row.n).padEnd(10)} ${row.compileMs.toFixed(1).padStart(12)}   ${row.firstMs.toFixed(2).padStart(15)}   ${row.planMs.toFixed(2).padStart(18)}   ${row.bestMs.toFixed(2).padStart(16)}   ${growth}`,
    );
    previous = row;
  }
}

// Warm the JIT on every shape and size once before measuring anything.
for (const n of SIZES) {
  measure(chain(n), ["c0"], { name: "end", preconditions: { [`c${n}`]: true } }, n);
  measure(wide(n), ["c0", "n0"], { name: "end", preconditions: { c10: true } }, 10);
}

const chainRows = SIZES.map((n) => ({
  n,
  ...measure(chain(n), ["c0"], { name: "end", preconditions: { [`c${n}`]: true } }, n),
}));
report("GOAP planner, chain-shaped domain (plan length = number of actions)", chainRows);

const wideRows = SIZES.map((n) => ({
  n,
  ...measure(wide(n), ["c0", "n0"], { name: "end", preconditions: { c10: true } }, 10),
}));
report("GOAP planner, wide domain (10 relevant actions among n)", wideRows);

const largest = chainRows[chainRows.length - 1];
const previous = chainRows[chainRows.length - 2];
const firstTotal = largest.compileMs + largest.firstMs;
console.log(
  `\n10,000-action chain: replan median ${largest.planMs.toFixed(1)} ms, best ${largest.bestMs.toFixed(1)} ms ` +
    `(target < 50 ms: ${largest.planMs < 50 ? "met" : "MISSED"}); growth 1,000 → 10,000 (best, the least load-sensitive): ` +
    `x${(largest.bestMs / previous.bestMs).toFixed(1)} (linear = x10).\n` +
    `First plan of a new agent (compile + first plan, once per agent and goal): ${firstTotal.toFixed(1)} ms ` +
    `(${firstTotal < 50 ? "also under" : "over"} 50 ms). Timings vary with machine load.`,
);
