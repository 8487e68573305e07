#!/usr/bin/env node
// The `embabel-ts` command (package bin, `npm start`).
import { runCli } from "./run-cli.js";
import { streamTerminal } from "./terminal.js";

// A closed pipe (`embabel-ts run ... | head`) ends the program quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const controller = new AbortController();
process.once("SIGINT", () => controller.abort(new Error("Interrupted (Ctrl-C)")));
process.once("SIGTERM", () => controller.abort(new Error("Terminated (SIGTERM)"))); // a worker drains, then exits

process.exitCode = await runCli(process.argv.slice(2), {
  terminal: streamTerminal(process.stdout, process.stderr, process.env),
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});
