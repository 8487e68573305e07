#!/usr/bin/env node
// Builds dist/: the JavaScript with esbuild, one bundle with code splitting (a
// few files to load instead of one a source file; dependencies stay imports),
// and the .d.ts with tsc (tsconfig.build.json, declarations only).
//   node scripts/build.mjs            build
//   node scripts/build.mjs --clean    remove dist/ first (prepack: the tarball holds exactly this build)
//   node scripts/build.mjs --if-stale build only when a source is newer than the last build (npm start)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
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
    // Loaded by path: createMcpServer's synchronous require() (src/mcp/lazy-mcp-server.ts).
    "src/mcp/create-mcp-server.ts",
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
    // Class and function names stay as written (agent and type names come from them).
    keepNames: true,
    // keepNames then names a class with a statement after it, not a static block (see markNamingPure).
    supported: { "class-static-blocks": false },
    sourcemap: false,
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith(".js") ? markNamingPure(file.text) : file.contents);
  }
  // Which sources each output (chunk) holds, for a look when a bundle grows; not in the package.
  writeFileSync(join(dist, "esbuild-meta.json"), JSON.stringify(result.metafile));
}

/**
 * `code` with keepNames' top-level naming statements made droppable by a
 * bundler of the package (a chunk holds many modules; a plain call would keep
 * every class and function of a chunk the program touches), while every
 * runtime still names them as written:
 * - `__name(f, "f")` names `f` what it is already called: removed;
 * - `__name(_X, "X"); <static fields of _X>; var X = _X;` (esbuild's lowering
 *   of a class) becomes `var X = /* @__PURE__ *\/ (() => { ...; return _X; })();`,
 *   a pure call whose value is used: Node, Deno and Bun (whose transpiler drops
 *   a pure call whose value is unused) all run it, and a bundler drops it with `X`.
 * Any other naming statement (a function renamed for a clash) stays as it is.
 */
export function markNamingPure(code) {
  return code
    .replace(/^__name\(([\w$]+), "([\w$]+)"\);\n/gm, (line, target, name) => (target === name ? "" : line))
    .replace(
      /^__name\((_[\w$]+), "([\w$]+)"\);\n((?:(?!^var |^function |^class |^\/\/ ).*\n)*?)var \2 = \1;$/gm,
      (_statements, target, name, fields) =>
        `var ${name} = /* @__PURE__ */ (() => {\n__name(${target}, "${name}");\n${fields}return ${target};\n})();`,
    );
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
