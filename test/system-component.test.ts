// The rule for tests that need a program from Debian's packages (redis-server,
// Chromium): skipped with one line locally, an error under CI=true.
import { afterEach, describe, expect, it, vi } from "vitest";
import { available, CHROMIUM, REDIS } from "./support/system-component.js";

const missing = {
  name: "no-such-server",
  path: "/nonexistent/no-such-server",
  debianPackage: "no-such-package",
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("available", () => {
  it("is true for an installed program", () => {
    expect(available({ ...missing, path: process.execPath })).toBe(true);
  });

  it("skips locally with one line naming what to install", () => {
    vi.stubEnv("CI", "");
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((line) => {
      lines.push(String(line));
      return true;
    });
    expect(available(missing)).toBe(false);
    expect(available(missing)).toBe(false);
    expect(lines).toEqual([
      "skipping the tests that need no-such-server is not installed (/nonexistent/no-such-server): apt-get install no-such-package (.ci/run does this)\n",
    ]);
  });

  it("fails under CI=true instead of skipping", () => {
    vi.stubEnv("CI", "true");
    expect(() => available(missing)).toThrow(/under CI=true its tests fail instead of being skipped/);
  });

  it("names the Debian packages .ci/run installs", () => {
    expect([REDIS.debianPackage, CHROMIUM.debianPackage]).toEqual(["redis-server", "chromium"]);
  });
});
