// The API reference (`npm run docs:api`, TypeDoc over the four entry points)
// builds with no warning: every exported class, function, interface, type and
// variable has TSDoc, and every {@link} resolves to something documented.
// typedoc.json turns warnings into errors; this runs it without writing HTML.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { root } from "./support/dist.js";

const run = promisify(execFile);

describe("API reference", () => {
  it("builds from the TSDoc of the public exports with no warning", async () => {
    const typedoc = join(root, "node_modules/typedoc/bin/typedoc");
    const result = await run(process.execPath, [typedoc, "--emit", "none", "--logLevel", "Warn"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => ({
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? error.message,
      failed: true,
    }));
    const output = `${result.stdout}${result.stderr}`;
    expect(
      output.split("\n").filter((line) => /warning|error/i.test(line)),
      output,
    ).toEqual([]);
    expect("failed" in result).toBe(false);
  }, 240_000);
});
