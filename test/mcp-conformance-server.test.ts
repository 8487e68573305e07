import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpHttpEndpoint } from "../src/index.js";
import { CLI_MAIN } from "./support/cli.js";
import { serveConformanceFixture } from "./support/conformance-server.js";
import { ensureBuilt } from "./support/dist.js";
import {
  type ConformanceRun,
  listConformanceScenarios,
  runServerConformance,
} from "./support/mcp-conformance.js";
import { mcpServeUrl } from "./support/mcp-serve-url.js";

// The official MCP conformance suite's server scenarios against our server: a
// fixture with the tools, resources and prompts the scenarios name, made with
// the project's public API and served by createMcpServer + serveMcpOverHttp
// (stateful, the default); and the scenarios that apply to any server against
// `embabel-ts mcp-serve --http 0 --scripted`. Each target gets one suite run, both at once.

/** Scenarios left out, and why. */
const LEFT_OUT: Readonly<Record<string, string>> = {
  // SEP-1699 SSE polling: the server must close a tool call's SSE stream early and
  // let the client resume it with Last-Event-ID, which needs an event store
  // (resumability); serveMcpOverHttp keeps none. Pending in the suite (0.1.16).
  "server-sse-polling": "needs resumable SSE streams (an event store)",
};

/** The scenarios that ask for no fixed tool, resource or prompt name: they apply to the CLI's server. */
const CLI_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  "completion-complete",
  "resources-list",
  "prompts-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

let endpoint: McpHttpEndpoint;
let run: ConformanceRun;
let cliRun: ConformanceRun;
let cli: ChildProcessWithoutNullStreams | undefined;
const cwd = mkdtempSync(join(tmpdir(), "embabel-conformance-cli-"));

/** Starts `mcp-serve --http 0 --scripted` and resolves with its URL once it listens. */
function serveCli(): Promise<string> {
  const child = spawn(process.execPath, [CLI_MAIN, "mcp-serve", "--http", "0", "--scripted"], {
    cwd,
    env: { PATH: process.env.PATH ?? "" },
  });
  cli = child;
  return mcpServeUrl(child);
}

beforeAll(async () => {
  ensureBuilt();
  endpoint = await serveConformanceFixture();
  const cliUrl = await serveCli();
  [run, cliRun] = await Promise.all([
    runServerConformance(endpoint.url, { suite: "all" }),
    runServerConformance(cliUrl, { suite: "all" }),
  ]);
}, 240_000);
afterAll(async () => {
  cli?.kill("SIGKILL");
  await endpoint?.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe("the MCP conformance suite's server scenarios (createMcpServer + serveMcpOverHttp)", () => {
  it("ran every server scenario the suite lists", async () => {
    const listed = await listConformanceScenarios("server");
    expect(listed.length).toBeGreaterThanOrEqual(32);
    expect(run.results.map((result) => result.scenario).sort()).toEqual([...listed].sort());
  });

  it("passes every scenario but the ones left out (each with a SUCCESS and no FAILURE)", () => {
    const failing = run.results
      .filter((result) => !result.passed && !(result.scenario in LEFT_OUT))
      .map((result) => `${result.scenario}: ${result.problems.join("; ") || "nothing was checked"}`);
    expect(failing).toEqual([]);
  });

  it("still fails the scenarios left out (so the list is kept honest)", () => {
    const leftOut = run.results.filter((result) => result.scenario in LEFT_OUT);
    expect(leftOut.map((result) => [result.scenario, result.passed])).toEqual(
      Object.keys(LEFT_OUT).map((scenario) => [scenario, false]),
    );
  });
});

describe("the MCP conformance suite's server scenarios (embabel-ts mcp-serve --http)", () => {
  it("passes every scenario that asks for no fixture-specific tool, resource or prompt", () => {
    const results = CLI_SCENARIOS.map((scenario) => {
      const result = cliRun.results.find((candidate) => candidate.scenario === scenario);
      return `${scenario}: ${result?.passed ? "pass" : (result?.problems.join("; ") ?? "not run")}`;
    });
    expect(results).toEqual(CLI_SCENARIOS.map((scenario) => `${scenario}: pass`));
  });
});
