// Scale-out through BullMQ on a local redis-server: agent runs per second
// through 1, 2 and 3 `embabel-ts worker` processes on loopback, against the
// in-process runner in the same run, and the queue's per-run overhead.
// The agent: three actions, each waiting ACTION_MS (standing in for an LLM
// call, so the work is I/O-bound as real agents are). Each worker runs
// CONCURRENCY processes at once; the in-process baseline runs at most
// CONCURRENCY at once too, so "1 worker / in-process" is the queue's cost
// and "k workers / 1 worker" is the scaling (on a 2-core machine the client,
// Redis and the workers share the cores: expect less than k on small hosts).
// Overhead: RUNS_SEQUENTIAL runs one after the other, through one worker vs
// in-process; the difference per run is what the queue adds (enqueue,
// pickup, a checkpoint per action, completion event, result read).
// Skips (exit 0) with a message when /usr/bin/redis-server is missing.
// Run: npm run bench (builds first), or node bench/scale-out.bench.mjs after a build.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REDIS_SERVER = "/usr/bin/redis-server";
if (!existsSync(REDIS_SERVER)) {
  console.log(`skipped: ${REDIS_SERVER} is missing (apt-get install redis-server, as .ci/run does)`);
  process.exit(0);
}

const RUNS = 300;
const RUNS_SEQUENTIAL = 40;
const ACTION_MS = 20;
const CONCURRENCY = 10;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const main = join(root, "dist/src/cli/main.js");
const dir = mkdtempSync(join(tmpdir(), "embabel-scale-bench-"));
const { AgentPlatform } = await import(pathToFileURL(join(root, "dist/src/index.js")).href);
const { BullMqRunner } = await import(pathToFileURL(join(root, "dist/src/distributed/index.js")).href);

const modulePath = join(dir, "agents.mjs");
writeFileSync(
  modulePath,
  `import { defineAgent } from ${JSON.stringify(pathToFileURL(join(root, "dist/src/index.js")).href)};
export class Ask { constructor(n) { this.n = n; } }
export class Found { constructor(n) { this.n = n; } }
export class Drafted { constructor(n) { this.n = n; } }
export class Answer { constructor(n, text) { this.n = n; this.text = text; } }
const wait = () => new Promise((resolve) => setTimeout(resolve, ${ACTION_MS}));
export const agents = [defineAgent({
  name: "Researcher",
  description: "Finds, drafts, answers",
  actions: [
    { name: "find", input: Ask, output: Found, run: async (ask) => { await wait(); return new Found(ask.n); } },
    { name: "draft", input: Found, output: Drafted, run: async (found) => { await wait(); return new Drafted(found.n); } },
    { name: "answer", input: Drafted, output: Answer, achievesGoal: { description: "An answer" },
      run: async (drafted) => { await wait(); return new Answer(drafted.n, "answer " + drafted.n); } },
  ],
})];
`,
);
const module = await import(pathToFileURL(modulePath).href);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const canConnect = (port) =>
  new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });

const children = [];
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const port = await freePort();
const redisServer = spawn(
  REDIS_SERVER,
  ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
  { stdio: "ignore" },
);
children.push(redisServer);
const url = `redis://127.0.0.1:${port}`;
for (let tries = 0; !(await canConnect(port)); tries++) {
  if (tries > 400) throw new Error("redis-server did not start");
  await new Promise((resolve) => setTimeout(resolve, 25));
}

function startWorker(queue, concurrency) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [main, "worker", modulePath, "--redis", url, "--queue", queue, "--concurrency", String(concurrency)],
      { cwd: root, stdio: ["ignore", "pipe", "ignore"] },
    );
    children.push(child);
    let out = "";
    const onData = (chunk) => {
      out += chunk;
      if (out.includes(`worker ${child.pid} `)) {
        out = "";
        child.stdout.off("data", onData);
        child.stdout.resume(); // keep draining its per-run lines
        resolve(child);
      }
    };
    child.stdout.on("data", onData);
    child.on("exit", (code) => reject(new Error(`worker exited ${code}`)));
  });
}

async function stopWorkers(workers) {
  for (const child of workers) {
    child.removeAllListeners("exit");
    const gone = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await gone;
  }
}

/** Runs `count` runs with at most `limit` at once; checks every result; returns the wall time in ms. */
async function timeRuns(platform, count, limit) {
  let next = 0;
  const start = performance.now();
  const lane = async () => {
    while (next < count) {
      const n = next++;
      const process = await platform.runAgent("Researcher", new module.Ask(n));
      if (process.status !== "completed" || process.result?.text !== `answer ${n}`) {
        throw new Error(
          `run ${n} ended ${process.status}: ${process.statusReason ?? JSON.stringify(process.result)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
  return performance.now() - start;
}

const inProcess = AgentPlatform.create({ models: {} });
inProcess.deploy(module.agents[0]);
await timeRuns(inProcess, 20, CONCURRENCY); // warm up

const results = [];
const inProcessMs = await timeRuns(inProcess, RUNS, CONCURRENCY);
results.push({ label: "in-process", ms: inProcessMs });
const sequentialInProcessMs = await timeRuns(inProcess, RUNS_SEQUENTIAL, 1);

let sequentialQueuedMs = 0;
for (const workerCount of [1, 2, 3]) {
  const queue = `bench-${workerCount}`;
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () => startWorker(queue, CONCURRENCY)),
  );
  const runner = await BullMqRunner.create({ connection: url, queue });
  const platform = AgentPlatform.create({ models: {}, runner });
  platform.deploy(module.agents[0]);
  await timeRuns(platform, 20, CONCURRENCY * workerCount); // warm up
  const ms = await timeRuns(platform, RUNS, CONCURRENCY * workerCount);
  results.push({ label: `${workerCount} worker${workerCount > 1 ? "s" : ""}`, ms });
  if (workerCount === 1) sequentialQueuedMs = await timeRuns(platform, RUNS_SEQUENTIAL, 1);
  await platform.close();
  await stopWorkers(workers);
}

const perSecond = (ms) => (RUNS / ms) * 1000;
console.log(
  `\n${RUNS} agent runs (3 actions x ${ACTION_MS} ms each), ${CONCURRENCY} at once per worker (and in-process), BullMQ on redis-server over loopback`,
);
const one = results.find((result) => result.label === "1 worker");
for (const { label, ms } of results) {
  const ratio =
    label === "in-process"
      ? ""
      : ` · x${(perSecond(ms) / perSecond(inProcessMs)).toFixed(2)} in-process · x${(perSecond(ms) / perSecond(one.ms)).toFixed(2)} 1 worker`;
  console.log(
    `${label.padEnd(11)} ${perSecond(ms).toFixed(0).padStart(5)} runs/s (${ms.toFixed(0)} ms)${ratio}`,
  );
}
const overheadMs = (sequentialQueuedMs - sequentialInProcessMs) / RUNS_SEQUENTIAL;
console.log(
  `per-run queue overhead: ${overheadMs.toFixed(1)} ms (${RUNS_SEQUENTIAL} runs one at a time: ${(sequentialQueuedMs / RUNS_SEQUENTIAL).toFixed(1)} ms through 1 worker vs ${(sequentialInProcessMs / RUNS_SEQUENTIAL).toFixed(1)} ms in-process; the actions themselves take ${3 * ACTION_MS} ms)`,
);
process.exit(0);
