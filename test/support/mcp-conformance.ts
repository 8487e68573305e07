import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// A harness for the official MCP conformance suite (`@modelcontextprotocol/conformance`,
// an exact dev dependency): runs its CLI against a server URL or a client command and
// returns each scenario's checks. Self-contained: it imports nothing of the project.

/** The suite's CLI (its package's `bin`). */
export const CONFORMANCE_CLI = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json")),
  "dist/index.js",
);

/** Loaded with `--import` before the CLI: supplies `fs.globSync` on Node < 22 (see the file). */
export const CONFORMANCE_FS_SHIM = fileURLToPath(new URL("./conformance-fs-shim.mjs", import.meta.url));

/** One check the suite recorded (its `checks.json` entries). */
export interface ConformanceCheck {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";
  readonly errorMessage?: string;
  readonly details?: unknown;
}

/** One scenario's checks and the verdict on them. */
export interface ConformanceScenarioResult {
  readonly scenario: string;
  readonly checks: readonly ConformanceCheck[];
  /**
   * At least one SUCCESS and no FAILURE (for a client scenario, no WARNING
   * either, as the suite's own exit code requires). A scenario that recorded
   * only warnings or info (nothing tested) does not pass.
   */
  readonly passed: boolean;
  /** The FAILURE checks (and, for a client, WARNING checks), as `id: message` lines. */
  readonly problems: readonly string[];
}

/** What one run of the CLI did. */
export interface ConformanceRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** One entry per scenario that wrote a `checks.json`, in the order of the names asked for when given. */
  readonly results: readonly ConformanceScenarioResult[];
}

/** The protocol revisions the suite has frozen requirement sets for. */
export type ConformanceRevision = "2025-11-25" | "2026-07-28";

/** The revisions, oldest first. */
export const CONFORMANCE_REVISIONS: readonly ConformanceRevision[] = ["2025-11-25", "2026-07-28"];

/** Options of a server run. */
export interface ServerConformanceOptions {
  /** Scenarios to run, one CLI run each, in parallel. @default the `suite`, in one CLI run */
  readonly scenarios?: readonly string[];
  /**
   * Runs exactly a revision's requirement set (scored and unscored scenarios,
   * each at that revision's wire), in one CLI run. Replaces `suite`.
   */
  readonly requirements?: ConformanceRevision;
  /** With `scenarios`: the wire revision each runs at (`--spec-version --force`). @default the scenario's own */
  readonly specVersion?: ConformanceRevision;
  /** The suite's set when no `scenarios` are given: "active", "all" or "pending". @default "all" */
  readonly suite?: "active" | "all" | "pending";
  /** Ends the run (the CLI is killed). */
  readonly signal?: AbortSignal;
  /** Kills the CLI after this long. @default 120000 */
  readonly timeoutMs?: number;
}

/** Options of a client run. */
export interface ClientConformanceOptions {
  /** The suite's per-scenario client timeout. @default 30000 */
  readonly clientTimeoutMs?: number;
  /**
   * The wire revision the scenario runs at (`--spec-version --force`); the
   * client reads it from `MCP_CONFORMANCE_PROTOCOL_VERSION`. @default the scenario's own
   */
  readonly specVersion?: ConformanceRevision;
  /** Environment for the CLI and so for the client command it starts. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Ends the run (the CLI is killed). */
  readonly signal?: AbortSignal;
  /** Kills the CLI after this long. @default 120000 */
  readonly timeoutMs?: number;
}

const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

function verdict(
  scenario: string,
  checks: ConformanceCheck[],
  mode: "server" | "client",
): ConformanceScenarioResult {
  const bad = checks.filter(
    (check) => check.status === "FAILURE" || (mode === "client" && check.status === "WARNING"),
  );
  return {
    scenario,
    checks,
    passed: bad.length === 0 && checks.some((check) => check.status === "SUCCESS"),
    problems: bad.map((check) => `${check.id}: ${check.errorMessage ?? check.description}`),
  };
}

/** Every `checks.json` under `dir` (a scenario folder without one: a failure), keyed by the scenario its folder names (`[server-]<scenario>-<timestamp>`). */
function readResults(dir: string, mode: "server" | "client"): ConformanceScenarioResult[] {
  const found: ConformanceScenarioResult[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(folder, entry.name);
      const checksFile = join(path, "checks.json");
      let scenario = relative(dir, path).replace(TIMESTAMP, "");
      if (mode === "server") scenario = scenario.replace(/^server-/, "");
      if (existsSync(checksFile)) {
        found.push(
          verdict(scenario, JSON.parse(readFileSync(checksFile, "utf8")) as ConformanceCheck[], mode),
        );
      } else if (TIMESTAMP.test(entry.name)) {
        // The scenario's folder without checks: the scenario threw before recording any.
        found.push({
          scenario,
          checks: [],
          passed: false,
          problems: ["the scenario recorded no checks (it failed to run)"],
        });
      } else walk(path);
    }
  };
  walk(dir);
  return found;
}

/** Runs the suite's CLI with `args` in a fresh results folder; reads what it wrote. */
function runCli(
  args: readonly string[],
  mode: "server" | "client",
  options: { env?: NodeJS.ProcessEnv; signal?: AbortSignal; timeoutMs?: number },
): Promise<ConformanceRun> {
  const dir = mkdtempSync(join(tmpdir(), "embabel-conformance-"));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", CONFORMANCE_FS_SHIM, CONFORMANCE_CLI, ...args, "--output-dir", dir],
      { cwd: dir, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // The CLI runs in its own process group, with any client command it starts: end them together.
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(kill, options.timeoutMs ?? 120_000);
    options.signal?.addEventListener("abort", kill, { once: true });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (exitCode) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", kill);
      try {
        resolve({ exitCode, stdout, stderr, results: readResults(dir, mode) });
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/**
 * Runs the suite's server scenarios against the MCP server at `url`: each of
 * `scenarios` in its own CLI run (all at once), or else the whole `suite` in
 * one run. Resolves with one result per scenario.
 */
export async function runServerConformance(
  url: string,
  options: ServerConformanceOptions = {},
): Promise<ConformanceRun> {
  const { scenarios, signal, timeoutMs, requirements, specVersion } = options;
  const runOptions = { ...(signal ? { signal } : {}), ...(timeoutMs ? { timeoutMs } : {}) };
  if (!scenarios) {
    const set = requirements ? ["--requirements", requirements] : ["--suite", options.suite ?? "all"];
    return runCli(["server", "--url", url, ...set], "server", runOptions);
  }
  const version = specVersion ? ["--spec-version", specVersion, "--force"] : [];
  const runs = await Promise.all(
    scenarios.map((scenario) =>
      runCli(["server", "--url", url, "--scenario", scenario, ...version], "server", runOptions),
    ),
  );
  return {
    exitCode: runs.find((run) => run.exitCode !== 0)?.exitCode ?? 0,
    stdout: runs.map((run) => run.stdout).join("\n"),
    stderr: runs.map((run) => run.stderr).join("\n"),
    results: scenarios.flatMap((scenario) =>
      runs.flatMap((run) => run.results.filter((result) => result.scenario === scenario)),
    ),
  };
}

/**
 * Runs one client scenario: the suite starts its test server and then
 * `command` (a shell command line) with the server's URL appended, and
 * `MCP_CONFORMANCE_SCENARIO` / `MCP_CONFORMANCE_CONTEXT` in its environment.
 */
export function runClientConformance(
  command: string,
  scenario: string,
  options: ClientConformanceOptions = {},
): Promise<ConformanceRun> {
  return runCli(
    [
      "client",
      "--command",
      command,
      "--scenario",
      scenario,
      "--timeout",
      String(options.clientTimeoutMs ?? 30_000),
      ...(options.specVersion ? ["--spec-version", options.specVersion, "--force"] : []),
    ],
    "client",
    {
      ...(options.env ? { env: options.env } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    },
  );
}

/** The scenario names the suite lists for `mode`. */
export function listConformanceScenarios(mode: "server" | "client"): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", CONFORMANCE_FS_SHIM, CONFORMANCE_CLI, "list", `--${mode}`],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.on("error", reject);
    child.on("close", () => {
      resolve([...stdout.matchAll(/^\s*- (\S+)/gm)].map((match) => match[1] as string));
    });
  });
}

/** Why a scenario of a requirement set is run but never scored (the suite's words). */
export type UnscoredReason = "extension" | "added-after-release" | "pending" | (string & {});

/** A revision's frozen requirement set, as `conformance list --requirements` prints it. */
export interface RequirementSet {
  readonly revision: ConformanceRevision;
  /** The scored server scenarios. */
  readonly server: readonly string[];
  /** The scored client scenarios. */
  readonly client: readonly string[];
  /** The scenarios run and reported but never scored, with the side they test and why. */
  readonly unscored: readonly { scenario: string; side: "server" | "client"; reason: UnscoredReason }[];
}

/** The scenarios a revision requires (and the unscored ones it runs), read from the suite's CLI. */
export function listRequirementSet(revision: ConformanceRevision): Promise<RequirementSet> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", CONFORMANCE_FS_SHIM, CONFORMANCE_CLI, "list", "--requirements", revision],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.on("error", reject);
    child.on("close", (exitCode) => {
      const server: string[] = [];
      const client: string[] = [];
      const unscored: { scenario: string; side: "server" | "client"; reason: string }[] = [];
      let section: "server" | "client" | "unscored" | undefined;
      let reason = "";
      for (const line of stdout.split("\n")) {
        if (line.startsWith("Server scenarios")) section = "server";
        else if (line.startsWith("Client scenarios")) section = "client";
        else if (line.startsWith("Run and reported")) section = "unscored";
        const heading = /^ {2}(\S[^(]*?) \(\d+\):$/.exec(line);
        if (section === "unscored" && heading) reason = heading[1] as string;
        const unscoredEntry = /^ {4}- (\S+) \[(server|client)\]$/.exec(line);
        if (section === "unscored" && unscoredEntry) {
          unscored.push({
            scenario: unscoredEntry[1] as string,
            side: unscoredEntry[2] as "server" | "client",
            reason,
          });
        }
        const entry = /^ {2}- (\S+)$/.exec(line);
        if (entry && section === "server") server.push(entry[1] as string);
        if (entry && section === "client") client.push(entry[1] as string);
      }
      if (exitCode !== 0 || server.length + client.length === 0) {
        reject(new Error(`conformance list --requirements ${revision} failed (exit ${exitCode}): ${stdout}`));
      } else resolve({ revision, server, client, unscored });
    });
  });
}
