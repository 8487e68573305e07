// Mutation testing of the core (`npm run mutation`; not part of `npm test`).
// A subset: `npm run mutation -- --mutate src/loop/parse-tool-arguments.ts`.
// Scores per file are in the README's development section; equivalent
// mutants are marked in the source with a `// Stryker disable next-line … : reason` comment.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.stryker.config.ts", related: true },
  plugins: ["@stryker-mutator/vitest-runner"],
  coverageAnalysis: "perTest",
  mutate: [
    "src/tool/**/*.ts",
    "src/loop/**/*.ts",
    "src/progressive/**/*.ts",
    "src/agentic/**/*.ts",
    "src/chaining/**/*.ts",
    "src/platform/planning/**/*.ts",
    // What the human-in-the-loop work added outside the loop: waits and their journal.
    "src/platform/process-waits.ts",
    "src/platform/wait-for.ts",
    // What the hardening added outside the core: wire values (checkpoints) that keep own
    // `__proto__` keys, and the JSON made safe for traces.
    "src/distributed/wire-value.ts",
    "src/tool/json-safe.ts",
    "!src/**/*.test.ts",
    "!src/**/index.ts",
  ],
  ignoreStatic: true,
  concurrency: 2,
  timeoutFactor: 2.5,
  timeoutMS: 10_000,
  // The first run of every related test file (with per-test coverage) takes minutes on two busy cores.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
