// GOAP planning time as the number of actions grows (100, 1,000, 10,000) on
// chain-shaped domains: action i needs c<i> and makes c<i+1>; the goal is the
// last condition, so every action is relevant and the plan has n steps. Also
// a "wide" domain: n actions of which only a 10-step chain is relevant.
// Target: 10,000 actions in < 50 ms, growing about linearly.
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

function measure(actions, start, goal, expectedLength) {
  const compileStart = performance.now();
  const planner = GoapPlanner.create(actions);
  const compileMs = performance.now() - compileStart;
  const times = [];
  for (let run = 0; run < RUNS + 2; run++) {
    const t0 = performance.now();
    const result = planner.plan(start, goal);
    const elapsed = performance.now() - t0;
    if (result.kind !== "plan" || result.actions.length !== expectedLength) {
      throw new Error(`unexpected planner result: ${result.kind} ${result.reason ?? result.actions.length}`);
    }
    if (run >= 2) times.push(elapsed); // two warm-up runs per planner
  }
  return { compileMs, planMs: median(times), bestMs: Math.min(...times) };
}

function report(title, rows) {
  console.log(`\n${title}`);
  console.log(
    "actions    compile (ms)   plan median (ms)   plan best (ms)   growth of best vs previous size",
  );
  let previous;
  for (const row of rows) {
    const growth = previous
      ? `x${(row.bestMs / previous.bestMs).toFixed(1)} for x${row.n / previous.n} actions`
      : "";
    console.log(
      `${String(row.n).padEnd(10)} ${row.compileMs.toFixed(1).padStart(12)}   ${row.planMs.toFixed(2).padStart(16)}   ${row.bestMs.toFixed(2).padStart(14)}   ${growth}`,
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
const ratio = largest.bestMs / chainRows[chainRows.length - 2].bestMs;
console.log(
  `\n10,000-action chain: median ${largest.planMs.toFixed(1)} ms, best ${largest.bestMs.toFixed(1)} ms ` +
    `(target < 50 ms: ${largest.planMs < 50 ? "met" : "MISSED"}); growth 1,000 → 10,000 (best): x${ratio.toFixed(1)} (linear = x10). ` +
    "Compile is once per agent (cached); medians vary with machine load.",
);
