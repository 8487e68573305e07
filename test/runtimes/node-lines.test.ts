import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/dist.js";
import {
  LIBRARY_PARTS,
  LIBRARY_SCENARIO,
  MCP_SERVER,
  NODE,
  NODE_LINES,
  parts,
  runExample,
  runScript,
  runtimeAvailable,
  withoutDurations,
} from "../support/runtimes.js";

// The built package on the other Node lines it supports (the engines floor,
// 20.19.0, and the newest 22 and 24), fetched from the npm registry by .ci/run.
// The rest of the suite runs on the Node that runs it.

beforeAll(() => ensureBuilt(), 180_000);

for (const node of NODE_LINES) {
  describe.runIf(runtimeAvailable(node))(`on ${node.name}`, () => {
    it("runs the tool loop, unfolding, an agentic tool, a GOAP agent and an MCP stdio group", async () => {
      const run = await runScript(node, LIBRARY_SCENARIO, ["--mcp", node.path, MCP_SERVER]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(parts(run.stdout)).toEqual(LIBRARY_PARTS);
    });

    it("runs an example with --scripted through the built CLI as the Node running the tests does", async () => {
      const [run, reference] = await Promise.all([
        runExample(node, ["star-news"]),
        runExample(NODE, ["star-news"]),
      ]);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(withoutDurations(run.stdout)).toEqual(withoutDurations(reference.stdout));
    });
  });
}
