// What a serverless cold start pays before the first line of user code: the
// wall time and resident memory of `import("embabel-ts")` against
// `import("ai")` (the AI SDK), each in a fresh Node process, alternating, the
// medians of RUNS runs each. Then the CLI's `--help` and `list`, end to end,
// beside a bare `node -e 0` measured in the same run (what Node's own start
// costs on this machine: on a loaded machine it alone can exceed the target).
// Each ratio is the median of the RUNS per-pair ratios (one pair: ours and the
// AI SDK's, back to back, which goes first flipping every pair), so a burst of
// load hits both sides of a pair alike.
// Targets: import time and RSS <= 1.0x the AI SDK's; each CLI command at most
// CLI_OVERHEAD_MS over Node's own start measured in the same run (an absolute
// time would judge the machine's load, not our code).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const RUNS = 15;
/** What a CLI command may add to Node's own start (`node -e 0`, same run). */
const CLI_OVERHEAD_MS = 100;
const ours = fileURLToPath(new URL("../dist/src/index.js", import.meta.url));
const cli = fileURLToPath(new URL("../dist/src/cli/main.js", import.meta.url));

/** One fresh process importing `specifier`: milliseconds of the import and RSS in MB after it. */
function importOnce(specifier) {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); const ms = performance.now() - t; process.stdout.write(JSON.stringify({ ms, rss: process.memoryUsage().rss / 1e6 }));`;
  return JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }),
  );
}

/** Wall milliseconds of one Node process running `args`, start to exit. */
function nodeOnce(args) {
  const started = performance.now();
  execFileSync(process.execPath, args, { stdio: "ignore", env: { ...process.env, NO_COLOR: "1" } });
  return performance.now() - started;
}

const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
const samples = { ours: [], ai: [] };
importOnce(ours);
importOnce("ai");
for (let run = 0; run < RUNS; run += 1) {
  const order = run % 2 === 0 ? ["ours", "ai"] : ["ai", "ours"];
  for (const side of order) samples[side].push(importOnce(side === "ours" ? ours : "ai"));
}
const figure = (side, key) => median(samples[side].map((sample) => sample[key]));
const pairRatio = (key) => median(samples.ours.map((sample, run) => sample[key] / samples.ai[run][key]));
const timeRatio = pairRatio("ms");
const rssRatio = pairRatio("rss");
if (timeRatio > 1 || rssRatio > 1) process.exitCode = 1;
console.log(
  `Import cost, fresh process each, ${RUNS} alternating pairs (figures: medians; ratios: median of the pairs' ratios)`,
);
console.log(
  `  import("ai")         : ${figure("ai", "ms").toFixed(0)} ms, ${figure("ai", "rss").toFixed(0)} MB RSS`,
);
console.log(
  `  import("embabel-ts") : ${figure("ours", "ms").toFixed(0)} ms, ${figure("ours", "rss").toFixed(0)} MB RSS`,
);
console.log(
  `  time ratio (ours / ai) : ${timeRatio.toFixed(3)}x  target <= 1.0x  ${timeRatio <= 1 ? "PASS" : "FAIL"}`,
);
console.log(
  `  RSS ratio (ours / ai)  : ${rssRatio.toFixed(3)}x  target <= 1.0x  ${rssRatio <= 1 ? "PASS" : "FAIL"}`,
);

console.log(`CLI, process start to exit, median of ${RUNS} alternating runs`);
const commands = { node: ["-e", "0"], help: [cli, "--help"], list: [cli, "list"] };
const cliSamples = { node: [], help: [], list: [] };
for (const args of Object.values(commands)) nodeOnce(args);
for (let run = 0; run < RUNS; run += 1) {
  for (const [name, args] of Object.entries(commands)) cliSamples[name].push(nodeOnce(args));
}
const bare = median(cliSamples.node);
console.log(`  node -e 0 (Node's own start) : ${bare.toFixed(0)} ms`);
for (const [name, label] of [
  ["help", "embabel-ts --help"],
  ["list", "embabel-ts list  "],
]) {
  const ms = median(cliSamples[name]);
  const overhead = ms - bare;
  const pass = overhead <= CLI_OVERHEAD_MS;
  if (!pass) process.exitCode = 1;
  console.log(
    `  ${label}            : ${ms.toFixed(0)} ms, ${overhead.toFixed(0)} ms over node -e 0  target <= ${CLI_OVERHEAD_MS} ms over  ${pass ? "PASS" : "FAIL"}`,
  );
}
