// Where the package's files are, for code that reads a file it ships (its
// package.json, the studio's page, an example's config) or loads a module by
// path. Bundled, a module runs from a shared chunk (dist/src/chunks/), so a
// path relative to `import.meta.url` would point beside the chunk: paths start
// from the package root instead.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The embabel-ts manifest's fields that code reads. */
export interface PackageManifest {
  readonly name?: string;
  readonly version?: string;
}

/** The folder holding embabel-ts's package.json, found upward from `from`; `undefined` outside the package (bundled into an app). */
export function packageRootFrom(from: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, "utf8")) as PackageManifest;
      if (manifest.name === "embabel-ts") return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The folder holding the running `src/` and `examples/` trees: `<package>/dist`
 * when the built code runs, the package itself when the sources run (tsx,
 * vitest), and beside `from` outside the package (bundled into an app).
 */
export function codeRootFrom(from: string): string {
  const root = packageRootFrom(from);
  if (root === undefined) return from;
  const dist = join(root, "dist");
  return from === dist || from.startsWith(`${dist}${sep}`) ? dist : root;
}

const here = dirname(fileURLToPath(import.meta.url));
let foundRoot: { readonly root: string | undefined } | undefined;

/** The folder holding embabel-ts's package.json, or `undefined` when this code runs outside the package. */
export function packageRoot(): string | undefined {
  foundRoot ??= { root: packageRootFrom(here) };
  return foundRoot.root;
}

/** `relativePath` (e.g. `examples/mcp-weather/`) in the package, as shipped; beside this code outside the package. */
export function packagePath(relativePath: string): string {
  return join(packageRoot() ?? here, relativePath);
}

/** `relativePath` (e.g. `src/studio/page/`) in the running code's tree; see {@link codeRootFrom}. */
export function codePath(relativePath: string): string {
  return join(codeRootFrom(here), relativePath);
}
