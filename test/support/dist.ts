import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
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

/**
 * Makes sure `dist/` holds a build at least as new as `src/` and `examples/`
 * (`npm test` builds first, so this only compiles when a test runs alone).
 */
export function ensureBuilt(): void {
  const marker = join(root, "dist/src/index.js");
  const fresh =
    existsSync(marker) &&
    statSync(marker).mtimeMs >= Math.max(newestMtime(join(root, "src")), newestMtime(join(root, "examples")));
  if (fresh) return;
  try {
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
  } catch (error) {
    // tsc still emits when some file has a type error; only a missing output is fatal here.
    if (!existsSync(marker)) throw error;
  }
}
