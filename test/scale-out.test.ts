import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// The scale-out proof, as a user runs it: three `embabel-ts worker` processes
// (the built CLI) on a real redis-server, 200 queued runs, and one worker
// killed with SIGKILL while it holds runs mid-action. Every run must complete
// with the right result, none finished twice, and the runs the dead worker
// held must continue from their last checkpoint on another worker (only the
// action in flight runs again).

const RUNS = 200;
const ACTIONS = ["first", "second", "third", "fourth"];

/** The agents module the workers load: four 30 ms actions, each logging its start and end per worker. */
function agentsModule(logDir: string): string {
  const dist = pathToFileURL(join(root, "dist/src/index.js")).href;
  return `
import { appendFileSync } from "node:fs";
import { defineAgent } from ${JSON.stringify(dist)};
export class Work { constructor(n) { this.n = n; } }
// Each step's output nests the run's Work (already on the blackboard): after a resume on
// another worker it must still be that very object, not a copy.
export class Step1 { constructor(n, value, origin) { this.n = n; this.value = value; this.origin = origin; } }
export class Step2 { constructor(n, value, origin) { this.n = n; this.value = value; this.origin = origin; } }
export class Step3 { constructor(n, value, origin) { this.n = n; this.value = value; this.origin = origin; } }
export class Total { constructor(n, value, origin) { this.n = n; this.value = value; this.origin = origin; } }
const log = (n, action, phase, identity = "") =>
  appendFileSync(${JSON.stringify(logDir)} + "/actions-" + process.pid + ".log", n + " " + action + " " + phase + (identity ? " " + identity : "") + "\\n");
const step = (name, input, output, compute, goal) => ({
  name, input, output,
  ...(goal ? { achievesGoal: { description: "The total" } } : {}),
  run: async (from, context) => {
    const origin = from instanceof Work ? from : from.origin;
    log(from.n, name, "start", origin === context.blackboard.last(Work) ? "same" : "copy");
    await new Promise((resolve) => setTimeout(resolve, 30));
    const result = new output(from.n, compute(from), origin);
    log(from.n, name, "end");
    return result;
  },
});
export const agents = [
  defineAgent({
    name: "Pipeline",
    description: "Four steps over a number",
    actions: [
      step("first", Work, Step1, (from) => from.n + 1),
      step("second", Step1, Step2, (from) => from.value * 2),
      step("third", Step2, Step3, (from) => from.value + 3),
      step("fourth", Step3, Total, (from) => from.value * 5, true),
    ],
  }),
];
`;
}

const expectedTotal = (n: number) => ((n + 1) * 2 + 3) * 5;

interface WorkerChild {
  readonly child: ChildProcess;
  readonly pid: number;
  stdout: string;
}

function startWorker(url: string, module: string): Promise<WorkerChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        main,
        "worker",
        module,
        "--redis",
        url,
        "--concurrency",
        "8",
        "--lock-duration",
        "2000",
        "--stalled-interval",
        "500",
      ],
      { cwd: root, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    const worker: WorkerChild = { child, pid: child.pid as number, stdout: "" };
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      worker.stdout += chunk;
      if (worker.stdout.includes(`worker ${worker.pid} `)) resolve(worker);
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready: ${stderr}`)));
  });
}

/** Per run: the actions started and ended, in order, with the pid of the worker that ran them. */
function readActionLogs(dir: string, pids: readonly number[]) {
  const runs = new Map<number, { action: string; phase: string; pid: number; identity: string }[]>();
  for (const pid of pids) {
    const file = join(dir, `actions-${pid}.log`);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const [n, action, phase, identity = ""] = line.split(" ");
      if (!n || !action || !phase) continue;
      const entries = runs.get(Number(n)) ?? [];
      entries.push({ action, phase, pid, identity });
      runs.set(Number(n), entries);
    }
  }
  return runs;
}

describe.skipIf(!hasRedisServer)("scale-out: 3 workers, 200 runs, one worker killed mid-run", () => {
  let redis: TestRedis;
  let dir: string;
  const workers: WorkerChild[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: the built library, imported at run time
  let platform: any;

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), "embabel-scale-out-"));
  }, 180_000);

  afterAll(async () => {
    await platform?.close().catch(() => {});
    for (const { child } of workers)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("completes every run once with the right result; the dead worker's runs continue from their checkpoints", async () => {
    const modulePath = join(dir, "agents.mjs");
    writeFileSync(modulePath, agentsModule(dir));
    workers.push(...(await Promise.all([0, 1, 2].map(() => startWorker(redis.url, modulePath)))));
    const [victim, ...survivors] = workers as [WorkerChild, WorkerChild, WorkerChild];

    const library = await import(pathToFileURL(join(root, "dist/src/index.js")).href);
    const distributed = await import(pathToFileURL(join(root, "dist/src/distributed/index.js")).href);
    const agents = (await import(pathToFileURL(modulePath).href)) as {
      Work: new (n: number) => object;
      Total: new (n: number, value: number) => object;
      agents: unknown[];
    };
    const runner = await distributed.BullMqRunner.create({ connection: redis.url });
    platform = library.AgentPlatform.create({ models: {}, runner });
    platform.deploy(agents.agents[0]);

    const handles = await Promise.all(
      Array.from({ length: RUNS }, (_, n) => platform.startAgent("Pipeline", new agents.Work(n))),
    );
    const results: Promise<
      {
        status: string;
        result: { n: number; value: number; origin: object };
        history: { actionName: string }[];
        blackboard: { last(type: unknown): unknown };
      }[]
    > = Promise.all(handles.map((handle: { result(): Promise<never> }) => handle.result()));

    // Kill the victim once it has finished some runs and holds others mid-run, past their first action.
    const victimLog = join(dir, `actions-${victim.pid}.log`);
    for (;;) {
      const lines = existsSync(victimLog) ? readFileSync(victimLog, "utf8").split("\n") : [];
      const finished = lines.filter((line) => line.endsWith("fourth end")).length;
      const runs = new Map<string, { started: number; ended: number }>();
      for (const line of lines) {
        const [n, , phase] = line.split(" ");
        if (!n || !phase) continue;
        const run = runs.get(n) ?? { started: 0, ended: 0 };
        if (phase === "start") run.started++;
        else run.ended++;
        runs.set(n, run);
      }
      const midRun = [...runs.values()].filter((run) => run.ended >= 1 && run.started > run.ended).length;
      if (finished >= 5 && midRun >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    victim.child.kill("SIGKILL");

    const processes = await results;
    // Every run completed, with its own right answer and each action once in its history.
    for (const [n, process] of processes.entries()) {
      expect(process.status, `run ${n}`).toBe("completed");
      expect(process.result).toBeInstanceOf(agents.Total);
      expect(process.result).toMatchObject({ n, value: expectedTotal(n) });
      expect(process.history.map((entry) => entry.actionName)).toEqual(ACTIONS);
      // The Work nested in the result is the blackboard's Work, not a copy.
      expect(process.result.origin).toBeInstanceOf(agents.Work);
      expect(process.result.origin).toBe(process.blackboard.last(agents.Work));
    }
    // None finished twice: each process id is reported finished by at most one worker.
    const finishedLines = workers.flatMap((worker) =>
      worker.stdout.split("\n").filter((line) => line.includes(" completed ")),
    );
    const finishedIds = finishedLines.map((line) => line.split(" ")[2]);
    expect(new Set(finishedIds).size).toBe(finishedIds.length);
    expect(finishedIds.length).toBeGreaterThanOrEqual(RUNS - 8);
    const resumedLines = survivors.flatMap((worker) =>
      worker.stdout.split("\n").filter((line) => line.includes("resumed from checkpoint")),
    );
    expect(resumedLines.length).toBeGreaterThan(0);

    // The dead worker's runs went on from their checkpoints: an action it finished is not run again,
    // except the last one when it died between the action's end and the checkpoint write.
    const logs = readActionLogs(
      dir,
      workers.map((worker) => worker.pid),
    );
    let rerunActions = 0;
    let continuedPastAnAction = 0;
    let resumedIdentityChecks = 0;
    for (const [n, entries] of logs) {
      const starts = entries.filter((entry) => entry.phase === "start");
      for (const action of ACTIONS) {
        const times = starts.filter((entry) => entry.action === action).length;
        expect(times, `run ${n} action ${action}`).toBeGreaterThanOrEqual(1);
        expect(times, `run ${n} action ${action}`).toBeLessThanOrEqual(2);
      }
      const onVictim = entries.filter((entry) => entry.pid === victim.pid);
      const elsewhere = entries.filter((entry) => entry.pid !== victim.pid);
      if (onVictim.length === 0 || elsewhere.length === 0) continue;
      const endedOnVictim = onVictim.filter((entry) => entry.phase === "end").map((entry) => entry.action);
      // Resumed from a checkpoint holding a finished action's output: its nested Work is the restored blackboard's Work.
      if (endedOnVictim.length > 0)
        for (const entry of elsewhere.filter((each) => each.phase === "start")) {
          expect(entry.identity, `run ${n} ${entry.action} after resume`).toBe("same");
          resumedIdentityChecks++;
        }
      const rerun = elsewhere.filter(
        (entry) => entry.phase === "start" && onVictim.some((done) => done.action === entry.action),
      );
      rerunActions += rerun.length;
      expect(rerun.length, `run ${n} re-ran ${rerun.map((entry) => entry.action)}`).toBeLessThanOrEqual(1);
      const finishedThenRerun = rerun.filter((entry) => endedOnVictim.includes(entry.action));
      for (const entry of finishedThenRerun)
        expect(entry.action).toBe(endedOnVictim[endedOnVictim.length - 1]);
      if (endedOnVictim.length > finishedThenRerun.length) continuedPastAnAction++;
    }
    expect(continuedPastAnAction).toBeGreaterThan(0);
    expect(resumedIdentityChecks).toBeGreaterThan(0);
    for (const entries of logs.values())
      for (const entry of entries.filter((each) => each.phase === "start"))
        expect(entry.identity).toBe("same");
    expect(rerunActions).toBeLessThanOrEqual(8);
    expect(rerunActions).toBeGreaterThan(0);
  }, 150_000);
});

/** The trace and result lines, without timings (which differ run to run). */
const traceOf = (stdout: string) =>
  stdout
    .split("\n")
    .slice(1)
    .map((line) =>
      line
        .replace(/\(<?\d+(\.\d+)?m?s\)/g, "(…)")
        .replace(/ · <?\d+(\.\d+)?m?s$/, " · …")
        .replace(/^✔ completed .*/, "✔ completed"),
    );

describe.skipIf(!hasRedisServer)("embabel-ts worker and run --redis", () => {
  let redis: TestRedis;
  let worker: WorkerChild | undefined;

  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
  }, 180_000);

  afterAll(async () => {
    worker?.child.kill("SIGKILL");
    await redis?.stop();
  });

  it("prints the same trace and result as a run in-process", async () => {
    worker = await new Promise<WorkerChild>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [main, "worker", "--redis", redis.url, "--scripted", "--queue", "cli"],
        {
          cwd: root,
          env: { PATH: process.env.PATH ?? "" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const started: WorkerChild = { child, pid: child.pid as number, stdout: "" };
      child.stdout?.on("data", (chunk) => {
        started.stdout += chunk;
        if (started.stdout.includes("agents [StarNewsWriter")) resolve(started);
      });
      child.on("exit", (code) => reject(new Error(`worker exited ${code}`)));
    });
    const [queued, local] = await Promise.all([
      cli(["run", "star-news", "Lynda, a Scorpio", "--redis", redis.url, "--queue", "cli"]),
      cli(["run", "star-news", "Lynda, a Scorpio", "--scripted"]),
    ]);
    expect(queued.stderr).toBe("");
    expect(queued.code).toBe(0);
    expect(queued.stdout.split("\n")[0]).toBe(
      `star-news · agent StarNewsWriter · queued on ${redis.url} (the workers' models)`,
    );
    expect(traceOf(queued.stdout)).toEqual(traceOf(local.stdout));
    expect(queued.stdout).toContain("Lynda's stars:");
    expect(worker.stdout).toMatch(/✔ StarNewsWriter [0-9a-f-]{36} completed \(3 actions\)/);

    // SIGTERM (what an orchestrator sends) drains the worker and ends it cleanly.
    const running = worker;
    running.child.removeAllListeners("exit");
    const exited = new Promise<number | null>((resolve) => running.child.once("exit", resolve));
    running.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(running.stdout).toContain("stopping: finishing 0 running process(es)…");
  }, 60_000);

  it("a worker with no model says so whole: the note, then every way to configure one", async () => {
    const child = spawn(process.execPath, [main, "worker", "--redis", redis.url, "--queue", "no-model"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let stdout = "";
      let stderr = "";
      child.stderr?.on("data", (chunk) => {
        stderr += chunk;
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (chunk) => {
          stdout += chunk;
          if (stdout.includes("agents [")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`worker exited ${code}: ${stderr}`)));
      });
      const lines = stderr.trim().split("\n");
      expect(lines[0]).toBe("note: no model configured, so runs whose actions call an LLM will fail.");
      // The configuration message follows in full, indented: each provider's variable and the other ways.
      expect(lines.slice(1).join("\n")).toMatch(/No LLM provider is configured/);
      for (const variable of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OLLAMA_BASE_URL", "EMBABEL_MODEL"])
        expect(stderr).toContain(variable);
      expect(stderr).toContain("--scripted");
      expect(lines.slice(1).every((line) => line.startsWith(" "))).toBe(true);
    } finally {
      child.removeAllListeners("exit");
      child.kill("SIGKILL");
    }
  }, 60_000);

  it("says clearly when Redis cannot be reached, for run and for worker", async () => {
    const [run, work] = await Promise.all([
      cli(["run", "star-news", "--redis", "redis://127.0.0.1:1"]),
      cli(["worker", "--redis", "redis://127.0.0.1:1"]),
    ]);
    for (const result of [run, work]) {
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n").at(-1)).toBe(
        "error: Cannot reach Redis at redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1. Start redis-server, or fix the URL (redis://host:port).",
      );
    }
  }, 60_000);
});
