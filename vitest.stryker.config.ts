import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * The unit and loop-level tests Stryker runs against each mutant: the tests
 * beside the sources and the fuzz tests (the integration tests under test/
 * start servers, browsers and packed tarballs, and kill no core mutant).
 * Isolation stays on: test/support/recording-tracer.ts installs a global
 * OpenTelemetry tracer, and without isolation it leaks between files and
 * span mutants show as false survivors. (Not `mergeConfig`: it appends
 * arrays, so the base config's test/ and examples/ globs would stay included.)
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["src/**/*.test.ts", "test/fuzz/**/*.test.ts"],
    reporters: ["default"],
    isolate: true,
  },
});
