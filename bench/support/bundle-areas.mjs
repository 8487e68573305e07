// What each area of the library weighs in the tools + agent bundle, gzipped:
//   node bench/support/bundle-areas.mjs
// The program (bundle/agent-program.ts) is bundled from src/ (so each statement
// keeps its source file), unminified and with dynamic imports left out (so no
// module is wrapped); each area's top-level statements are then taken out, the
// rest minified and gzipped as bundle-size.mjs does, and the difference printed.
// The figures are what the area's code costs, not what removing it would leave
// runnable; docs/internals/benchmarks.md quotes them.
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, transform } from "esbuild";
import ts from "typescript";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Areas by the source paths they cover. */
const AREAS = {
  "GOAP planning": /src\/platform\/(planning\/|agent-planning|run-agent-process)/,
  "waits, approvals, the tool gate, loop resumption":
    /src\/(platform\/(process-waits|wait-for)|loop\/(tool-gate|approval-gate|approval-callback-authority|strict-json-schema|answer-checks|resumable-state|restore-tool-set)|tool\/(tool-approval|approval-grant)|errors\/(approval-unavailable|awaiting-response))/,
  "zod JSON Schema fast path": /src\/tool\/zod-json-schema/,
  "tool chaining": /src\/chaining\//,
  tracing: /src\/(loop\/(otel-global|loop-telemetry)|platform\/process-telemetry)/,
  "prices and model ids": /src\/llm\/(price-table|model-id)/,
  embeddings: /src\/(llm\/(embedding|embed-values)|platform\/process-embedding)/,
  "event descriptions (debug lines)": /src\/platform\/describe-event/,
  "the platform's MCP hook": /src\/platform\/platform-mcp/,
  "ScriptedModel (the program's stand-in model)": /src\/testing\//,
};

/** dist/ imports of the program, read from src/ instead; dynamic imports left out. */
const fromSource = {
  name: "from-source",
  setup(builder) {
    builder.onResolve({ filter: /dist\/src\/(index|testing\/index)\.js$/ }, (args) => ({
      path: `${root}src/${args.path.includes("testing") ? "testing/index" : "index"}.ts`,
    }));
    builder.onResolve({ filter: /.*/ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, external: true } : undefined,
    );
  },
};

const result = await build({
  entryPoints: [`${root}bench/support/bundle/agent-program.ts`],
  absWorkingDir: root,
  tsconfig: `${root}tsconfig.build.json`,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "es2022",
  write: false,
  logLevel: "silent",
  plugins: [fromSource],
  external: ["zod", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/openai-compatible", "bullmq", "ioredis"],
});
const text = result.outputFiles[0]?.text ?? "";
const source = ts.createSourceFile("bundle.js", text, ts.ScriptTarget.ES2022, true);
// esbuild marks each source file's code with a `// src/...` line.
const marks = [...text.matchAll(/^\/\/ (\S+)$/gm)].map((match) => [match.index, match[1]]);
const fileAt = (position) => {
  let file = "";
  for (const [at, name] of marks) {
    if (at > position) break;
    file = name;
  }
  return file;
};
const statements = source.statements.map((statement) => ({
  start: statement.getStart(),
  end: statement.getEnd(),
  file: fileAt(statement.getStart()),
}));
const gzipped = async (code) =>
  gzipSync((await transform(code, { minify: true, format: "esm", target: "es2022" })).code, { level: 9 })
    .length;

const whole = await gzipped(text);
console.log(`The tools + agent program bundled from src/: ${(whole / 1024).toFixed(1)} KB gzipped`);
for (const [area, files] of Object.entries(AREAS)) {
  let rest = "";
  let last = 0;
  for (const statement of statements) {
    if (!files.test(statement.file)) continue;
    rest += text.slice(last, statement.start);
    last = statement.end;
  }
  rest += text.slice(last);
  console.log(`  ${area}: ${((whole - (await gzipped(rest))) / 1024).toFixed(2)} KB`);
}
