#!/usr/bin/env node
// Builds dist/ with tsc (tsconfig.build.json).
//   node scripts/build.mjs            build
//   node scripts/build.mjs --clean    remove dist/ first (prepack: the tarball holds exactly this build)
//   node scripts/build.mjs --if-stale build only when a source is newer than the last build (npm start)
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const marker = join(root, "dist/src/index.js");
const inputs = ["src", "examples", "tsconfig.json", "tsconfig.build.json"];

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

function build() {
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], {
      cwd: root,
      stdio: "inherit",
    });
  } catch (error) {
    process.exit(error.status ?? 1); // tsc has printed what is wrong
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes("--clean")) rmSync(join(root, "dist"), { recursive: true, force: true });
  if (args.includes("--if-stale")) {
    if (!isStale()) process.exit(0);
    const why = existsSync(marker) ? "Sources changed since the last build" : "No build yet";
    process.stderr.write(`${why}: building dist/ (tsc, about 20 s)…\n`);
  }
  build();
}
