import { spawn } from "node:child_process";
import { join } from "node:path";
import { root } from "./dist.js";

/** The built command's entry point (`embabel-ts`). */
export const CLI_MAIN = join(root, "dist/src/cli/main.js");

/** What one run of the built command printed, and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the built command with plain node in a clean environment (only `PATH`,
 * plus `env`), asynchronously, so a server the test started keeps serving while it runs.
 */
export function cli(args: readonly string[], env: Record<string, string> = {}, cwd = root): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
