#!/usr/bin/env node
// Builds dist/: the JavaScript with esbuild, one bundle with code splitting (a
// few files to load instead of one a source file; dependencies stay imports),
// and the .d.ts with tsc (tsconfig.build.json, declarations only).
//   node scripts/build.mjs            build
//   node scripts/build.mjs --clean    remove dist/ first (prepack: the tarball holds exactly this build)
//   node scripts/build.mjs --if-stale build only when a source is newer than the last build (npm start)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const marker = join(dist, "src/index.js");
const inputs = ["src", "examples", "tsconfig.json", "tsconfig.build.json"];

/**
 * Every module something imports from dist/ by path, so each keeps its path
 * (dist/src/index.js, ...); all other code goes into shared chunks under
 * dist/src/chunks/. One build, so every class exists once across them.
 */
export function entryPoints() {
  const examples = readdirSync(join(root, "examples"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, "examples", entry.name, "index.ts")))
    .map((entry) => `examples/${entry.name}/index.ts`);
  return [
    // The package's exports and its bin.
    "src/index.ts",
    "src/testing/index.ts",
    "src/distributed/index.ts",
    "src/studio/index.ts",
    "src/cli/main.ts",
    // Loaded by path: createMcpServer's synchronous require() (src/mcp/serve/lazy-mcp-server.ts).
    "src/mcp/serve/create-mcp-server.ts",
    // The platform layer as an entry of its own, so that esbuild's chunks
    // follow it: a user's bundle that uses no MCP then leaves out the chunk
    // holding MCP and tool search (measured: 178 KB instead of 224 KB minified
    // for bench/support/bundle/agent-program.ts). Also progressive/index.ts
    // gained 4 KB more but made `import("embabel-ts")` ~15% slower (more files).
    "src/platform/index.ts",
    // `@llmTool` as an entry of its own, so that it, `MethodTool` and the reader it
    // records form a chunk of their own: otherwise they share a chunk with skills,
    // subagents and code mode, which a user's bundler wraps whole (that chunk lies
    // below an import() of load-mcp-sdk.ts) and keeps whole once anything in it is
    // used (measured: the two-tool program 169 KB gzipped instead of 152 KB).
    "src/tool/llm-tool.ts",
    // Imported by path by tests and benches.
    "src/mcp/index.ts",
    "src/progressive/tool-search-parameters.ts",
    // The examples, as docs and tests run them (`embabel-ts run ./dist/examples/star-news/index.js`).
    "examples/index.ts",
    "examples/tools-quickstart.ts",
    "examples/user-input.ts",
    ...examples.sort(),
  ];
}

/** The newest modification time under `path`, tests excluded (they are not built). */
function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (!entry.endsWith(".test.ts")) newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** True when dist/ is missing or older than a source file, a folder or a tsconfig. */
export function isStale() {
  const built = statSync(marker, { throwIfNoEntry: false });
  if (!built) return true;
  return Math.max(...inputs.map((input) => newestMtime(join(root, input)))) > built.mtimeMs;
}

/** Removes the JavaScript of an earlier build (old chunks, or one file a source from tsc); the studio's page stays. */
function removeBuiltJs(path) {
  if (!existsSync(path)) return;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) {
      if (relative(dist, child) !== join("src", "studio", "page")) removeBuiltJs(child);
    } else if (/\.js(\.map)?$/.test(entry.name)) {
      rmSync(child);
    }
  }
}

/** tsc's declarations (types unchanged from a tsc build); resolves to tsc's exit code. */
function emitDeclarations() {
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  const child = spawn(
    process.execPath,
    [tsc, "-p", join(root, "tsconfig.build.json"), "--emitDeclarationOnly"],
    { cwd: root, stdio: "inherit" },
  );
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}

async function bundleJs() {
  const esbuild = await import("esbuild");
  removeBuiltJs(join(dist, "src"));
  removeBuiltJs(join(dist, "examples"));
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: entryPoints(),
    outdir: dist,
    outbase: root,
    entryNames: "[dir]/[name]",
    chunkNames: "src/chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    packages: "external",
    // As vitest.config.ts lowers them: TC39 decorators become plain ES2022, which Node 20 runs.
    target: "es2022",
    tsconfig: join(root, "tsconfig.build.json"),
    // No keepNames: unminified, names stay as written but where nameClassesAsWritten mends them.
    // (keepNames names every class with a call, which a user's bundle of the package keeps: +2 KB gzipped.)
    sourcemap: false,
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  const classes = declaredClassNames();
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(
      file.path,
      file.path.endsWith(".js") ? nameClassesAsWritten(file.text, classes) : file.contents,
    );
  }
  // Which sources each output (chunk) holds, for a look when a bundle grows; not in the package.
  writeFileSync(join(dist, "esbuild-meta.json"), JSON.stringify(result.metafile));
}

/** The name of every class the sources declare (`class X`), to tell a name as written from esbuild's rename of it (`X2`). */
export function declaredClassNames(dirs = ["src", "examples"]) {
  const names = new Set();
  const visit = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) visit(child);
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        for (const match of readFileSync(child, "utf8").matchAll(/\bclass\s+([A-Za-z_$][\w$]*)/g))
          names.add(match[1]);
      }
    }
  };
  for (const dir of dirs) visit(join(root, dir));
  return names;
}

/**
 * `code` with each top-level class named as its source wrote it. Bundling, esbuild
 * turns `class X` into `var X = class {` (named X: fine), or into
 * `var X = class _X {` when the class refers to itself, or renames it `X2` for a
 * clash in a chunk. A class that refers to itself gets its own name back as its
 * inner name (`var X = class X {`, its references to `_X` read `X`: the same
 * binding), which costs a user's bundle nothing; a renamed one gets a static
 * `name` getter (agent, type and error-message names come from class names).
 * A getter, unlike keepNames' `__name` call, keeps the class removable by a
 * user's bundler. Functions are left as esbuild names them (a renamed one is an
 * internal helper).
 */
export function nameClassesAsWritten(code, classes) {
  const lines = code.split("\n");
  const out = [];
  const header = /^var ([\w$]+) = class(?: (?!extends\b)([\w$]+))?((?: extends [^\n]*)?) \{$/;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const match = header.exec(line);
    if (!match) {
      out.push(line);
      continue;
    }
    const [, variable, inner, heritage = ""] = match;
    const unrenamed = variable.replace(/\d+$/, "");
    const name = !classes.has(variable) && classes.has(unrenamed) ? unrenamed : variable;
    const end = inner === `_${name}` && variable === name ? classEnd(lines, index, inner) : 0;
    if ((inner ?? variable) === name) {
      out.push(line);
    } else if (end > 0) {
      const self = selfReference(inner, "g");
      out.push(`var ${variable} = class ${name}${heritage} {`);
      for (let body = index + 1; body < end; body++) out.push(lines[body].replace(self, name));
      index = end - 1;
    } else {
      out.push(`${line}\n  static get name() {\n    return "${name}";\n  }`);
    }
  }
  return out.join("\n");
}

/** A pattern of the identifier `name` (esbuild's inner class names are plain identifiers). */
function selfReference(name, flags = "") {
  return new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`, flags);
}

/**
 * The line that closes the class opened at `start` (the first `};` after it),
 * when its inner name `inner` occurs nowhere after that line; else 0 (the
 * class is then named by a getter, as it cannot be told where its body ends).
 */
function classEnd(lines, start, inner) {
  let end = start + 1;
  while (end < lines.length && lines[end] !== "};") end++;
  if (end === lines.length) return 0;
  const self = selfReference(inner);
  for (let after = end; after < lines.length; after++) if (self.test(lines[after])) return 0;
  return end;
}

async function build() {
  const declarations = emitDeclarations();
  try {
    await bundleJs();
  } catch {
    process.exit(1); // esbuild has printed what is wrong
  }
  const code = await declarations;
  if (code !== 0) process.exit(code); // tsc has printed what is wrong
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes("--clean")) rmSync(dist, { recursive: true, force: true });
  if (args.includes("--if-stale")) {
    if (!isStale()) process.exit(0);
    const why = existsSync(marker) ? "Sources changed since the last build" : "No build yet";
    process.stderr.write(`${why}: building dist/ (esbuild, then tsc's declarations, about 20 s)…\n`);
  }
  await build();
}
