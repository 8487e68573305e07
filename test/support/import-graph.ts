// The import graph of src/: which source file imports which (all imports, and
// those left when types are erased), the layers it is checked against, and the
// checks test/layers.test.ts runs on it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** Source file (relative to src/, `/`-separated) → the source files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The imports of src/: all of them, and those that load a module when the program runs. */
export interface SourceImports {
  /** Every import: static, type-only, re-exports and dynamic `import()`. */
  readonly all: ImportGraph;
  /** Without the type-only ones (`import type`, `export type`, all-`type` specifiers): erased when compiled. */
  readonly runtime: ImportGraph;
}

/** Every non-test `.ts` file under `srcDir` with the files it imports (relative imports only). */
export function readImportGraph(srcDir: string): SourceImports {
  const all = new Map<string, string[]>();
  const runtime = new Map<string, string[]>();
  for (const file of sourceFiles(srcDir)) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
    const allTargets = new Set<string>();
    const runtimeTargets = new Set<string>();
    for (const { specifier, typeOnly } of importsOf(source)) {
      if (!specifier.startsWith(".")) continue;
      const target = resolveSource(resolve(dirname(file), specifier));
      if (!target?.startsWith(srcDir + sep)) continue;
      allTargets.add(toKey(srcDir, target));
      if (!typeOnly) runtimeTargets.add(toKey(srcDir, target));
    }
    all.set(toKey(srcDir, file), [...allTargets].sort());
    runtime.set(toKey(srcDir, file), [...runtimeTargets].sort());
  }
  return { all, runtime };
}

function importsOf(source: ts.SourceFile): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts");
    return isSource && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

function resolveSource(path: string): string | undefined {
  const withoutJs = path.replace(/\.js$/, "");
  for (const candidate of [`${withoutJs}.ts`, join(withoutJs, "index.ts")]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function toKey(srcDir: string, file: string): string {
  return relative(srcDir, file).split(sep).join("/");
}

/**
 * The layers of the code block that follows the `<!-- layers: … -->` marker in
 * `markdown`, top first: each line's names before its first two spaces.
 */
export function readLayers(markdown: string): string[][] {
  const block = /<!-- layers:[^\n]*-->\n```[^\n]*\n([\s\S]*?)\n```/.exec(markdown)?.[1];
  if (block === undefined) throw new Error("no `<!-- layers: … -->` block followed by a code block");
  return block.split("\n").map((line) =>
    (line.split(/ {2,}/)[0] ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  );
}

/** The layer of a file: its top folder under src/; `undefined` for a file at the top of src/. */
export function folderOf(file: string): string | undefined {
  const slash = file.indexOf("/");
  return slash === -1 ? undefined : file.slice(0, slash);
}

/**
 * Imports that point up the layer list (`layers` top first), as `from → to`.
 * `src/index.ts` may import anything; other top-level files may import no folder.
 */
export function upwardImports(graph: ImportGraph, layers: readonly (readonly string[])[]): string[] {
  const rank = new Map<string, number>();
  layers.forEach((names, index) => {
    for (const name of names) rank.set(name, layers.length - index);
  });
  const found: string[] = [];
  for (const [from, targets] of graph) {
    if (from === "index.ts") continue;
    const fromFolder = folderOf(from);
    for (const to of targets) {
      const toFolder = folderOf(to);
      if (toFolder === undefined || toFolder === fromFolder) continue;
      const fromRank = fromFolder === undefined ? 0 : (rank.get(fromFolder) ?? 0);
      if (fromRank < (rank.get(toFolder) ?? Number.POSITIVE_INFINITY)) found.push(`${from} → ${to}`);
    }
  }
  return found;
}

/** The import circles (strongly connected components of more than one file), each sorted, largest first. */
export function importCircles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative (a deep import chain must not overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++] as string;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const circle: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          circle.push(member);
        } while (member !== frame.node);
        if (circle.length > 1) circles.push(circle.sort());
      }
    }
  }
  return circles.sort((a, b) => b.length - a.length);
}
