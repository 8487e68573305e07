import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpHttpEndpoint } from "../src/index.js";
import { serveConformanceFixture } from "./support/conformance-server.js";
import {
  type ConformanceRun,
  listConformanceScenarios,
  runServerConformance,
} from "./support/mcp-conformance.js";

// The official MCP conformance suite's server scenarios against our server: a
// fixture with the tools, resources and prompts the scenarios name, made with
// the project's public API and served by createMcpServer + serveMcpOverHttp
// (stateful, the default). The whole suite runs in one CLI invocation.

/** Scenarios left out, and why. */
const LEFT_OUT: Readonly<Record<string, string>> = {
  // SEP-1699 SSE polling: the server must close a tool call's SSE stream early and
  // let the client resume it with Last-Event-ID, which needs an event store
  // (resumability); serveMcpOverHttp keeps none. Pending in the suite (0.1.16).
  "server-sse-polling": "needs resumable SSE streams (an event store)",
};

let endpoint: McpHttpEndpoint;
let run: ConformanceRun;

beforeAll(async () => {
  endpoint = await serveConformanceFixture();
  run = await runServerConformance(endpoint.url, { suite: "all" });
}, 180_000);
afterAll(() => endpoint?.close());

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
