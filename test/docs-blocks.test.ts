// Every ```ts block of README.md and docs/ compiles, as written, against the
// built package as a user's project sees it: imports of "embabel-ts",
// "embabel-ts/testing", "embabel-ts/distributed" and "embabel-ts/studio"
// resolve through package.json's "exports" to dist/'s .d.ts, zod is the
// user's, and the compiler options are the tsconfig README.md documents.
// One TypeScript program checks all blocks (one per block would take minutes).
//
// Convention for doc authors (docs/internals/writing-docs.md says the same):
// - A ```ts block must be complete: its own imports, every name declared.
// - `<!-- continues -->` on the line before a fence compiles the block after
//   the page's previous tested block, in the same file (its imports and names
//   are in scope), for a page that builds one example step by step.
// - `<!-- not-tested: reason -->` keeps a block out; in docs/ the reason is
//   required. Keep these few.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";
import {
  type CompiledBlock,
  compiledBlocks,
  docsPages,
  fencedBlocks,
  jsonBlockUnder,
} from "./support/readme-blocks.js";

const pages = ["README.md", ...docsPages()];
/**
 * The most blocks docs/ may keep out of the compile. Today's count: two signature summaries
 * (agentic-tools' AgenticTool, prompt-runner's LlmInteractionHost) and observability's OpenTelemetry
 * SDK setup (packages embabel-ts does not depend on). It may only go down.
 */
const MOST_NOT_TESTED = 3;

describe("doc block markers", () => {
  it("compiles a continued block after the one it continues, and reads a not-tested reason", () => {
    const markdown = [
      "# Page",
      "```ts",
      'import { a } from "x";',
      "```",
      "<!-- continues -->",
      "```ts",
      "a();",
      "```",
      "<!-- not-tested: needs a live key -->",
      "```ts",
      "live();",
      "```",
      "```ts",
      "fresh();",
      "```",
    ].join("\n");
    const units = compiledBlocks("docs/page.md", markdown);
    expect(units.map(({ line, code, pageLines }) => ({ line, code, pageLines }))).toEqual([
      { line: 2, code: 'import { a } from "x";', pageLines: [3] },
      { line: 6, code: 'import { a } from "x";\na();', pageLines: [3, 7] },
      { line: 13, code: "fresh();", pageLines: [14] },
    ]);
    expect(fencedBlocks("ts", markdown)[2]).toMatchObject({
      tested: false,
      notTestedReason: "needs a live key",
    });
  });

  it("rejects a continued block with nothing before it", () => {
    expect(() => compiledBlocks("docs/page.md", "<!-- continues -->\n```ts\nx();\n```")).toThrow(
      "docs/page.md:2: the block is marked <!-- continues --> but no tested ts block precedes it",
    );
  });

  it("every block docs/ keeps out says why, and those stay few", () => {
    const skipped = docsPages().flatMap((page) =>
      fencedBlocks("ts", readFileSync(join(root, page), "utf8"), page)
        .filter((block) => !block.tested && !block.notTestedReason.startsWith("an excerpt of "))
        .map((block) => ({ where: `${page}:${block.line}`, reason: block.notTestedReason })),
    );
    expect(skipped.filter((block) => block.reason === "").map((block) => block.where)).toEqual([]);
    expect(skipped.length).toBeLessThanOrEqual(MOST_NOT_TESTED);
  });
});

describe("doc blocks compile against the built package", () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("type-checks every tested ts block of README.md and docs/ in one program", () => {
    const units = pages.flatMap((page) => compiledBlocks(page));
    expect(units.length).toBeGreaterThanOrEqual(26);
    // Under the package root, so "embabel-ts" resolves by self-reference through package.json's
    // "exports", exactly the paths a user's import resolves to in node_modules/embabel-ts.
    const directory = join(root, "dist/test/docs-blocks");
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory, { recursive: true });
    const byFile = new Map<string, CompiledBlock>();
    for (const unit of units) {
      const file = join(directory, `${unit.id}.ts`);
      writeFileSync(file, unit.code);
      byFile.set(file, unit);
    }
    const documented = jsonBlockUnder("Use it in your project") as { compilerOptions: object };
    const { options, errors } = ts.convertCompilerOptionsFromJson(documented.compilerOptions, directory);
    expect(errors).toEqual([]);
    // No outDir: with one, TypeScript would map the package's dist/ exports back to src/ (its own
    // sources), where a user's compiler sees only the published .d.ts.
    const { outDir: _outDir, ...userOptions } = options;
    const program = ts.createProgram([...byFile.keys()], {
      ...userOptions,
      noEmit: true,
      // Two blocks with no import or export must not share one global scope.
      moduleDetection: ts.ModuleDetectionKind.Force,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
      const file = diagnostic.file;
      const unit = file ? byFile.get(file.fileName) : undefined;
      if (!file || !unit || diagnostic.start === undefined) {
        return `${file ? relative(root, file.fileName) : "(program)"}: TS${diagnostic.code}: ${message}`;
      }
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start);
      return `${unit.page}:${unit.pageLines[line] ?? unit.line} (block at line ${unit.line}): TS${diagnostic.code}: ${message}`;
    });
    expect(problems, `doc blocks that do not compile:\n${problems.join("\n")}`).toEqual([]);
  }, 120_000);
});
