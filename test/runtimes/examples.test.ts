import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../support/dist.js";
import {
  BUN,
  DENO,
  EXAMPLE_RUNS,
  NODE,
  runExample,
  runScript,
  runtimeAvailable,
  withoutDurations,
} from "../support/runtimes.js";

// Every example, run with --scripted through the built CLI (dist/src/cli/main.js)
// on Bun and on Deno, prints what it prints on Node, durations aside; and so
// does the tools quickstart, run directly.

beforeAll(() => ensureBuilt(), 180_000);

const TOOLS_QUICKSTART = join(root, "dist/examples/tools-quickstart.js");

const runtimes = [BUN, DENO].filter(runtimeAvailable);

describe.runIf(runtimes.length > 0)(
  `embabel-ts run <example> --scripted on ${runtimes.map((runtime) => runtime.name).join(" and ")}`,
  () => {
    it.each(EXAMPLE_RUNS.map((example) => ({ name: example[0], example })))(
      "runs $name as on Node",
      async ({ example }) => {
        const [onNode, ...others] = await Promise.all(
          [NODE, ...runtimes].map((runtime) => runExample(runtime, example)),
        );
        expect(onNode?.stdout).toContain("✔ completed");
        others.forEach((run, index) => {
          const runtime = runtimes[index]?.name;
          expect({ runtime, code: run.code, stderr: run.stderr }).toEqual({ runtime, code: 0, stderr: "" });
          expect({ runtime, stdout: withoutDurations(run.stdout) }).toEqual({
            runtime,
            stdout: withoutDurations(onNode?.stdout ?? ""),
          });
        });
      },
      40_000, // three CLI processes at once: past the default 20 s on a busy machine
    );

    it("runs the tools quickstart (dist/examples/tools-quickstart.js) as on Node", async () => {
      const [onNode, ...others] = await Promise.all(
        [NODE, ...runtimes].map((runtime) => runScript(runtime, TOOLS_QUICKSTART)),
      );
      expect(onNode?.stdout).toContain("add -> 8");
      others.forEach((run, index) => {
        const runtime = runtimes[index]?.name;
        expect({ runtime, ...run }).toEqual({ runtime, ...onNode, stderr: "" });
      });
    });
  },
);
