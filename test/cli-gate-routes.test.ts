import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI_MAIN, type CliRun, cli } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";

// `embabel-ts run <module> --scripted` on a user's agent whose model first
// sends bad arguments (refused in-band, nobody asked), then reaches an
// approval-gated tool through a facade shortcut: --approve-all runs it once,
// --deny-all never, and without a terminal the run waits naming the inner tool.
// On a terminal (a pseudo-terminal from util-linux `script`), a question nobody
// answers before the approval's timeoutMs is withdrawn: denied "timed out".

const MODULE = join(root, "test/fixtures/waits/gated-desk.mjs");
let dir: string;
let log: string;
const payments = () => readFileSync(log, "utf8").split("\n").filter(Boolean);
const run = (...flags: string[]) =>
  cli(["run", MODULE, "Pay the invoice", "--scripted", "--no-keep-runs", ...flags], {
    NO_COLOR: "1",
    PAY_LOG: log,
  });

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "embabel-gate-routes-"));
  log = join(dir, "payments.log");
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => writeFileSync(log, ""));

describe("embabel-ts run: bad arguments and a facade shortcut to an approval-gated tool", () => {
  it("--approve-all: the bad call is refused in-band, the shortcut's inner call runs once", async () => {
    const done = await run("--approve-all");
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain("done: paid 100 for f1");
    expect(payments()).toEqual(["f1 100"]);
  }, 60_000);

  it("--deny-all: the inner call never runs, and the denial reaches the model", async () => {
    const done = await run("--deny-all");
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain("The user denied this call: denied by --deny-all");
    expect(payments()).toEqual([]);
  }, 60_000);

  it("no terminal and no flag: the run waits, naming the inner tool and its arguments", async () => {
    const waiting = await run();
    expect(waiting.code).toBe(3);
    expect(waiting.stderr).toContain('approve pay({"tag":"f1","cents":100})');
    expect(waiting.stderr).toContain("Pay 100 cents for f1?");
    expect(payments()).toEqual([]);
  }, 60_000);
});

/** `embabel-ts run` on a pseudo-terminal (util-linux `script`) that nobody types into; its output, exit code and how long it took. */
function runOnSilentTerminal(env: Record<string, string>): Promise<CliRun & { ms: number }> {
  const command = [
    process.execPath,
    CLI_MAIN,
    "run",
    MODULE,
    "'Pay the invoice'",
    "--scripted",
    "--no-keep-runs",
  ];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", command.join(" "), "/dev/null"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", TERM: "dumb", NO_COLOR: "1", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    // Nothing is ever typed, and the input stays open: only the timeout can end the question.
    const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr: "", ms: performance.now() - started });
    });
  });
}

describe("embabel-ts run on a terminal, nobody answering before the approval's timeout", () => {
  it("withdraws the question at the deadline: denied 'timed out', the tool never runs, the run completes", async () => {
    const done = await runOnSilentTerminal({ PAY_LOG: log, PAY_TIMEOUT_MS: "400" });
    expect(done.stdout).toContain("[a]pprove / [d]eny / [e]dit:");
    expect(done.stdout).toContain('No answer to r1 before its timeout: denied ("timed out").');
    expect(done.stdout).toContain("done: Error: The user denied this call: timed out");
    expect(done.code, done.stdout).toBe(0);
    expect(done.ms).toBeLessThan(20_000);
    expect(payments()).toEqual([]);
  }, 60_000);
});
