import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/dist.js";
import {
  BUN,
  DENO,
  EXAMPLE_RUNS,
  mapLimited,
  NODE,
  type RuntimeRun,
  runExample,
  runtimeAvailable,
  withoutDurations,
} from "../support/runtimes.js";

// Every example, run with --scripted through the built CLI (dist/src/cli/main.js)
// on Bun and on Deno, prints what it prints on Node, durations aside.

beforeAll(() => ensureBuilt(), 180_000);

const runtimes = [BUN, DENO].filter(runtimeAvailable);

describe.runIf(runtimes.length > 0)("embabel-ts run <example> --scripted on other runtimes", () => {
  it(`runs every example on ${runtimes.map((runtime) => runtime.name).join(" and ")} as on Node`, async () => {
    const runs = await mapLimited(EXAMPLE_RUNS, 2, async (example) => ({
      example: example[0],
      onNode: await runExample(NODE, example),
      others: await Promise.all(
        runtimes.map(async (runtime) => ({ runtime: runtime.name, run: await runExample(runtime, example) })),
      ),
    }));
    for (const { example, onNode, others } of runs) {
      expect(onNode.stdout).toContain("✔ completed");
      for (const { runtime, run } of others) {
        const seen = (result: RuntimeRun) => ({ example, runtime, code: result.code, stderr: result.stderr });
        expect(seen(run)).toEqual(seen({ code: 0, stderr: "", stdout: "" }));
        expect({ example, runtime, stdout: withoutDurations(run.stdout) }).toEqual({
          example,
          runtime,
          stdout: withoutDurations(onNode.stdout),
        });
      }
    }
  }, 90_000); // 21 CLI processes, two examples at a time: past the default 20 s on a busy machine
});
