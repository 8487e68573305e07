import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/dist.js";
import {
  BUN,
  DECORATORS_SCENARIO,
  LIBRARY_PARTS,
  LIBRARY_SCENARIO,
  MCP_SERVER,
  parts,
  runScript,
  runtimeAvailable,
} from "../support/runtimes.js";

// The built package on Bun (the `bun` dev dependency), imported by its name as an app would.

beforeAll(() => ensureBuilt(), 180_000);

describe.runIf(runtimeAvailable(BUN))("on Bun", () => {
  it("runs the tool loop, unfolding, an agentic tool, a GOAP agent and an MCP stdio group", async () => {
    const run = await runScript(BUN, LIBRARY_SCENARIO, ["--mcp", BUN.path, ...BUN.runScript(MCP_SERVER)]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(parts(run.stdout)).toEqual(LIBRARY_PARTS);
  });

  it("runs TypeScript with TC39 decorators (@llmTool, @agent) as source", async () => {
    const run = await runScript(BUN, DECORATORS_SCENARIO);
    expect(run.stderr).toBe("");
    expect(parts(run.stdout).decorators).toEqual({
      status: "completed",
      result: { text: "2 + 3 = 5" },
      offered: [
        ["math"],
        ["math", "add", "multiply", "math_context"],
        ["math", "add", "multiply", "math_context"],
      ],
      toolResult: { type: "text", value: "5" },
    });
  });
});
