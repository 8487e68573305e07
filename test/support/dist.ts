import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const root = fileURLToPath(new URL("../..", import.meta.url));

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const entries = readdirSync(path).filter((entry) => !entry.endsWith(".test.ts"));
  return Math.max(stat.mtimeMs, ...entries.map((entry) => newestMtime(join(path, entry))));
}

const LOCK_STALE_MS = 300_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `work` holding a lock shared by every test worker (a directory, which
 * one process at a time can create), so that two test files never build
 * `dist/` at once, nor one reads `dist/` while another rewrites it.
 */
function withBuildLock(work: () => void): void {
  const lock = join(root, "dist/.build-lock");
  mkdirSync(join(root, "dist"), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A worker that died mid-build leaves its lock behind; no build takes this long.
      const heldSince = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (heldSince !== undefined && Date.now() - heldSince > LOCK_STALE_MS) {
        rmSync(lock, { recursive: true, force: true });
      }
      sleepSync(100);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes sure `dist/` holds a build at least as new as `src/` and `examples/`
 * (`npm test` builds first, so this only builds when a test runs alone, or
 * when sources changed since the last build); safe to call from test files
 * running in parallel.
 */
export function ensureBuilt(): void {
  const marker = join(root, "dist/src/index.js");
  withBuildLock(() => {
    const fresh =
      existsSync(marker) &&
      statSync(marker).mtimeMs >=
        Math.max(newestMtime(join(root, "src")), newestMtime(join(root, "examples")));
    if (fresh) return;
    try {
      execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "pipe" });
    } catch (error) {
      // The JavaScript is built even when tsc reports a type error; only a missing output is fatal here.
      if (!existsSync(marker)) throw error;
    }
    execFileSync(process.execPath, [join(root, "scripts/copy-studio-page.mjs")], { stdio: "pipe" });
  });
}
