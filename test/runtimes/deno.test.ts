import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/dist.js";
import {
  DECORATORS_SCENARIO,
  DENO,
  LIBRARY_PARTS,
  LIBRARY_SCENARIO,
  MCP_SERVER,
  parts,
  runScript,
  runtimeAvailable,
  spawnRun,
} from "../support/runtimes.js";

// The built package on Deno (the `deno` dev dependency, `deno run -A`), imported by its name as an app would.

beforeAll(() => ensureBuilt(), 180_000);

describe.runIf(runtimeAvailable(DENO))("on Deno", () => {
  it("runs the tool loop, unfolding, an agentic tool, a GOAP agent and an MCP stdio group", async () => {
    const run = await runScript(DENO, LIBRARY_SCENARIO, ["--mcp", DENO.path, ...DENO.runScript(MCP_SERVER)]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(parts(run.stdout)).toEqual(LIBRARY_PARTS);
  });

  it("runs the library without MCP with only --allow-read and --allow-env", async () => {
    const run = await spawnRun(DENO.path, [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      LIBRARY_SCENARIO,
    ]);
    expect(run.stderr).toBe("");
    const { "mcp-stdio": _mcp, ...withoutMcp } = LIBRARY_PARTS;
    expect(parts(run.stdout)).toEqual(withoutMcp);
  });

  it("runs TypeScript with TC39 decorators (@llmTool, @agent) as source", async () => {
    const run = await runScript(DENO, DECORATORS_SCENARIO);
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
