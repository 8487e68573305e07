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
  CONFORMANCE_REVISIONS,
  type ConformanceRevision,
  type ConformanceRun,
  listRequirementSet,
  type RequirementSet,
  runServerConformance,
} from "./support/mcp-conformance.js";
import { mcpServeUrl } from "./support/mcp-serve-url.js";

// The official MCP conformance suite's server scenarios (0.2.0, both frozen
// requirement sets: 2025-11-25 and 2026-07-28, each at its own wire) against
// our server: a fixture with the tools, resources and prompts the scenarios
// name, made with the project's public API and served by createMcpServer +
// serveMcpOverHttp (stateful, the default), one endpoint answering both
// revisions (2025-11-25 through sessions, 2026-07-28 per request, its
// multi-round-trip fixtures asking with McpServerCall.requireInput); and the scenarios that apply to any
// server against `embabel-ts mcp-serve --http 0 --scripted`. Every scenario of
// each set runs (the unscored extension and pending ones too); each target and
// revision is one CLI run, all four at once.

/** Scenarios left out, per revision, and why. Each must still fail (checked below). */
const LEFT_OUT: Readonly<Record<ConformanceRevision, Readonly<Record<string, string>>>> = {
  "2025-11-25": {},
  "2026-07-28": {
    // The tasks extension (SEP-2663, unscored) is served; this scenario of the suite records only
    // SKIPPED ("pending subscriptions/listen rewrite"), so it can pass for no server. Our server sends
    // no notifications/tasks either: the SDK's listen bus cannot carry them (typescript-sdk#2189).
    "tasks-status-notifications":
      "the suite's scenario checks nothing yet (SKIPPED, pending its subscriptions/listen rewrite)",
  },
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
const sets = new Map<ConformanceRevision, RequirementSet>();
const runs = new Map<ConformanceRevision, ConformanceRun>();
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
  const [, , ...done] = await Promise.all([
    ...CONFORMANCE_REVISIONS.map(async (revision) => sets.set(revision, await listRequirementSet(revision))),
    runServerConformance(cliUrl, { requirements: "2025-11-25" }),
    ...CONFORMANCE_REVISIONS.map((requirements) => runServerConformance(endpoint.url, { requirements })),
  ]);
  cliRun = done[0] as ConformanceRun;
  for (const [index, revision] of CONFORMANCE_REVISIONS.entries()) {
    runs.set(revision, done[index + 1] as ConformanceRun);
  }
}, 240_000);
afterAll(async () => {
  cli?.kill("SIGKILL");
  await endpoint?.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe.each(CONFORMANCE_REVISIONS)(
  "the MCP conformance suite's %s server requirement set (createMcpServer + serveMcpOverHttp)",
  (revision) => {
    it("ran every server scenario of the set, the unscored ones too", () => {
      const set = sets.get(revision) as RequirementSet;
      expect(set.server.length).toBeGreaterThanOrEqual(30);
      const expected = [
        ...set.server,
        ...set.unscored.filter((entry) => entry.side === "server").map((entry) => entry.scenario),
      ];
      const ran = runs.get(revision)?.results.map((result) => result.scenario);
      expect([...(ran ?? [])].sort()).toEqual(expected.sort());
    });

    it("passes every scenario but the ones left out (each with a SUCCESS and no FAILURE)", () => {
      const failing = (runs.get(revision)?.results ?? [])
        .filter((result) => !result.passed && !(result.scenario in LEFT_OUT[revision]))
        .map((result) => `${result.scenario}: ${result.problems.join("; ") || "nothing was checked"}`);
      expect(failing).toEqual([]);
    });

    it("still fails the scenarios left out (so the list is kept honest)", () => {
      const results = runs.get(revision)?.results ?? [];
      const leftOut = Object.keys(LEFT_OUT[revision]);
      expect(
        leftOut.map((scenario) => [scenario, results.find((result) => result.scenario === scenario)?.passed]),
      ).toEqual(leftOut.map((scenario) => [scenario, false]));
    });
  },
);

describe.each(CONFORMANCE_REVISIONS)("the %s requirement set's scored scenarios", (revision) => {
  it("passes every one of them (30 of 30 at 2025-11-25, 37 of 37 at 2026-07-28)", () => {
    const set = sets.get(revision) as RequirementSet;
    const results = runs.get(revision)?.results ?? [];
    const passed = set.server.filter(
      (scenario) => results.find((result) => result.scenario === scenario)?.passed,
    );
    expect(passed).toEqual(set.server);
    expect(set.server.length).toBe(revision === "2025-11-25" ? 30 : 37);
  });
});

describe("the MCP conformance suite's server scenarios (embabel-ts mcp-serve --http, 2025-11-25)", () => {
  it("passes every scenario that asks for no fixture-specific tool, resource or prompt", () => {
    const results = CLI_SCENARIOS.map((scenario) => {
      const result = cliRun.results.find((candidate) => candidate.scenario === scenario);
      return `${scenario}: ${result?.passed ? "pass" : (result?.problems.join("; ") ?? "not run")}`;
    });
    expect(results).toEqual(CLI_SCENARIOS.map((scenario) => `${scenario}: pass`));
  });
});
