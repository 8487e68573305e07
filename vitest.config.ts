import { transform } from "esbuild";
import { defineConfig, type Plugin } from "vitest/config";
import { SummaryReporter } from "./test/support/summary-reporter.js";
import { available, BROWSER_TESTS, CHROMIUM } from "./test/support/system-component.js";

/**
 * Vite 8 (oxc) leaves TC39 decorators untransformed and Node 20 cannot run them,
 * so TypeScript sources are lowered by esbuild before Vite sees them.
 */
function lowerDecorators(): Plugin {
  return {
    name: "embabel:lower-decorators",
    enforce: "pre",
    async transform(code, id) {
      if (!id.endsWith(".ts") || id.includes("node_modules")) return null;
      const result = await transform(code, {
        loader: "ts",
        target: "es2022",
        sourcefile: id,
        sourcemap: true,
      });
      return { code: result.code, map: result.map };
    },
  };
}

export default defineConfig({
  plugins: [lowerDecorators()],
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    // Without Chromium the studio's browser tests are skipped locally (one line says what to install); under CI=true, an error.
    exclude: ["**/node_modules/**", ...(available(CHROMIUM) ? [] : BROWSER_TESTS)],
    testTimeout: 20_000,
    reporters: ["default", new SummaryReporter()],
  },
});
