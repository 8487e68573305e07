import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";
import {
  CONFORMANCE_REVISIONS,
  type ConformanceRevision,
  listRequirementSet,
  runClientConformance,
} from "./support/mcp-conformance.js";

// The official MCP conformance suite's client scenarios (0.2.0, both frozen
// requirement sets: 2025-11-25 and 2026-07-28) against our client: the suite
// starts its test server, then our client program (public API only,
// test/fixtures/mcp/conformance-client.mjs) with the server's URL. Every
// scenario of each set runs, the unscored extension ones too, each at its
// revision's wire (`--spec-version`), a few at a time. The client finds the
// revision itself: `server/discover` first (2026-07-28), `initialize` when the
// server does not know it (2025-11-25).

const CLIENT = `${process.execPath} ${join(root, "test/fixtures/mcp/conformance-client.mjs")}`;

/** Client features not offered, at either wire (unscored extensions). */
const NOT_OFFERED: Readonly<Record<string, string>> = {
  "auth/enterprise-managed-authorization": "no ID-JAG token exchange / jwt-bearer grant (SEP-990)",
  "auth/dpop": "no DPoP-bound tokens (SEP-1932)",
  "auth/dpop-nonce": "no DPoP-bound tokens (SEP-1932)",
  "auth/wif-jwt-bearer": "no workload-identity jwt-bearer grant",
};

/** Scenarios left out, per revision, and why. Each must still fail (checked below). */
const LEFT_OUT: Readonly<Record<ConformanceRevision, Readonly<Record<string, string>>>> = {
  "2025-11-25": NOT_OFFERED,
  "2026-07-28": NOT_OFFERED,
};

/** Runs `scenarios` a few at a time (each is a suite CLI plus our client: two Node processes). */
async function runAll(scenarios: readonly [ConformanceRevision, string][], atOnce: number) {
  const results = new Map<string, { passed: boolean; problems: readonly string[]; output: string }>();
  const queue = [...scenarios];
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const [specVersion, scenario] = next;
        const run = await runClientConformance(CLIENT, scenario, { specVersion, timeoutMs: 60_000 });
        const result = run.results.find((entry) => entry.scenario === scenario);
        results.set(`${specVersion} ${scenario}`, {
          passed: result?.passed === true && run.exitCode === 0,
          problems: result?.problems ?? [`no checks recorded (exit ${run.exitCode})`],
          output: run.stderr.slice(-1_500),
        });
      }
    }),
  );
  return results;
}

const sets = await Promise.all(CONFORMANCE_REVISIONS.map((revision) => listRequirementSet(revision)));
/** Every client scenario of both sets, scored and unscored, with the revision it runs at. */
const SCENARIOS: [ConformanceRevision, string][] = sets.flatMap((set) => [
  ...set.client.map((scenario): [ConformanceRevision, string] => [set.revision, scenario]),
  ...set.unscored
    .filter((entry) => entry.side === "client")
    .map((entry): [ConformanceRevision, string] => [set.revision, entry.scenario]),
]);

describe("the MCP conformance suite's client scenarios", () => {
  let results: Awaited<ReturnType<typeof runAll>>;

  beforeAll(async () => {
    ensureBuilt();
    results = await runAll(SCENARIOS, 4);
  }, 900_000);

  it("covers both requirement sets", () => {
    expect(sets.map((set) => set.client.length)).toEqual([18, 32]);
  });

  it.each(SCENARIOS)("at %s passes %s (or is left out and still fails)", (revision, scenario) => {
    const result = results.get(`${revision} ${scenario}`);
    expect(result, scenario).toBeDefined();
    if (scenario in LEFT_OUT[revision]) {
      expect(result?.passed, `${scenario} passes now: take it off LEFT_OUT`).toBe(false);
      return;
    }
    expect(result?.problems, result?.output).toEqual([]);
    expect(result?.passed).toBe(true);
  });
});
