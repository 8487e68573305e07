import { existsSync } from "node:fs";

/** A program from Debian's packages that some tests start (`.ci/run` installs it when missing). */
export interface SystemComponent {
  /** What the tests call it (`redis-server`). */
  readonly name: string;
  /** Where the tests look for it. */
  readonly path: string;
  /** The Debian package that brings it. */
  readonly debianPackage: string;
}

const told = new Set<string>();

/**
 * Whether the program `name` is at `path`. Missing on a developer's machine:
 * its tests are skipped, with one line on stderr saying how to get it
 * (`install`). Missing under `CI=true`: an error, so a CI run never passes by
 * skipping them.
 */
export function present(name: string, path: string, install: string): boolean {
  if (existsSync(path)) return true;
  const hint = `${name} is not installed (${path}): ${install}`;
  if (process.env.CI === "true")
    throw new Error(`${hint}; under CI=true its tests fail instead of being skipped.`);
  if (!told.has(name)) {
    told.add(name);
    process.stderr.write(`skipping the tests that need ${hint}\n`);
  }
  return false;
}

/** Whether `component` is installed, by the rule of {@link present}. */
export function available(component: SystemComponent): boolean {
  return present(
    component.name,
    component.path,
    `apt-get install ${component.debianPackage} (.ci/run does this)`,
  );
}

/** The Redis server the scale-out tests start. */
export const REDIS: SystemComponent = {
  name: "redis-server",
  path: "/usr/bin/redis-server",
  debianPackage: "redis-server",
};

/** The browser the studio page is tested in (through playwright-core). */
export const CHROMIUM: SystemComponent = {
  name: "chromium",
  path: "/usr/bin/chromium",
  debianPackage: "chromium",
};

/** The test files that drive the studio page in Chromium (left out, with one line, when it is missing locally). */
export const BROWSER_TESTS: readonly string[] = [
  "test/studio.test.ts",
  "test/studio-security.test.ts",
  "test/studio-waits.test.ts",
  "test/studio-mcp-waits.test.ts",
];
