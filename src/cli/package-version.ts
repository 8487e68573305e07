import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type PackageManifest, packageRoot } from "../package-root.js";

/** The version in embabel-ts's package.json (from the package root, so it works from `src/`, `dist/` and a bundled chunk). */
export function packageVersion(): string {
  const root = packageRoot();
  if (root === undefined) return "unknown";
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageManifest;
  return manifest.version ?? "unknown";
}
