#!/usr/bin/env node
import { createInterface } from "node:readline/promises";
// The `embabel-ts` command (package bin, `npm start`).
import { Logger } from "../tool/logger.js";
import type { AskLine } from "./answer-waits.js";
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
// Persistent listeners (not `once`): while one is registered, the MCP child-process guard leaves the
// signal to us, so a worker draining on SIGTERM still closes its MCP servers itself. A second signal exits now.
const stopOn = (reason: string, code: number) => () => {
  if (controller.signal.aborted) process.exit(code);
  controller.abort(new Error(reason));
};
process.on("SIGINT", stopOn("Interrupted (Ctrl-C)", 130));
process.on("SIGTERM", stopOn("Terminated (SIGTERM)", 143)); // a worker drains, then exits

const terminal = streamTerminal(process.stdout, process.stderr, process.env);
// The library's warnings (MCP servers' messages among them) go through the terminal, made safe like every line.
Logger.setDefault(Logger.stderr({ write: (line) => terminal.err(line.replace(/\n$/, "")) }));
// On a terminal, a run waiting for a person asks here (one line at a time; closed once the command ends).
let lines: ReturnType<typeof createInterface> | undefined;
const ask: AskLine | undefined = process.stdin.isTTY
  ? async (question, withdrawn) => {
      lines ??= createInterface({ input: process.stdin, output: process.stdout });
      try {
        const signal = withdrawn ? AbortSignal.any([controller.signal, withdrawn]) : controller.signal;
        return await lines.question(question, { signal });
      } catch {
        return undefined;
      }
    }
  : undefined;

process.exitCode = await runCli(process.argv.slice(2), {
  terminal,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
  ...(ask ? { ask } : {}),
});
lines?.close();
