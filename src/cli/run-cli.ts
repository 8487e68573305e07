import { ConfigurationError } from "../errors/configuration-error.js";
import { parseCliArgs } from "./cli-args.js";
import type { CliCommand } from "./cli-commands.js";
import type { CliEnvironmentOptions } from "./cli-environment.js";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, EXIT_WAITING } from "./exit-status.js";
import { HELP_TEXT } from "./help-text.js";
import { packageVersion } from "./package-version.js";
import type { Terminal } from "./terminal.js";
import { UsageError } from "./usage-error.js";

export type { CliEnvironmentOptions };
export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, EXIT_WAITING };

/**
 * Runs the `embabel-ts` command line and returns the exit status. User errors
 * (bad arguments, missing configuration) are printed as one clear message,
 * never a stack trace.
 */
export async function runCli(argv: readonly string[], options: CliEnvironmentOptions): Promise<number> {
  const { terminal } = options;
  try {
    const command = parseCliArgs(argv);
    return await dispatch(command, options);
  } catch (error) {
    if (UsageError.isInstance(error)) {
      terminal.err(`${terminal.style.red("error:")} ${error.message}`);
      return EXIT_USAGE;
    }
    if (ConfigurationError.isInstance(error)) {
      terminal.err(`${terminal.style.red("error:")} ${error.message}`);
      return EXIT_FAILED;
    }
    const message = error instanceof Error ? error.message : String(error);
    terminal.err(`${terminal.style.red("error:")} ${message}`);
    if (options.env.EMBABEL_DEBUG && error instanceof Error && error.stack) terminal.err(error.stack);
    return EXIT_FAILED;
  }
}

// Each command's module is imported when that command runs: `--help` and `list` load no
// agent, no MCP, no studio, no Redis client, and start in well under 150 ms.
async function dispatch(command: CliCommand, options: CliEnvironmentOptions): Promise<number> {
  const { terminal } = options;
  switch (command.command) {
    case "help":
      if (command.missingCommand) {
        // Like any other usage mistake: the help on stderr, status 2 (scripts notice a missing command).
        terminal.err(HELP_TEXT.trimEnd());
        return EXIT_USAGE;
      }
      terminal.out(HELP_TEXT.trimEnd());
      return EXIT_OK;
    case "version":
      terminal.out(packageVersion());
      return EXIT_OK;
    case "list":
      await listExamples(terminal, options.env);
      return EXIT_OK;
    case "run":
      return (await import("./run-example.js")).runExample(command, options);
    case "studio":
      return (await import("./studio-command.js")).runStudioCommand(command, options);
    case "worker":
      return (await import("./run-worker.js")).runWorker(command, options);
    case "mcp-serve":
      return (await import("./mcp-serve.js")).serveExamplesOverMcp(command, options);
    case "respond":
      return (await import("./respond-command.js")).respondOnRedis(command, options);
    case "waiting":
      return (await import("./respond-command.js")).waitingOnRedis(command, options);
  }
}

/** How the user typed the command: `npm start --` inside a clone of the repository (where `embabel-ts` is not on PATH), else `embabel-ts`. */
function commandName(env: CliEnvironmentOptions["env"]): string {
  return env.npm_lifecycle_event === "start" ? "npm start --" : "embabel-ts";
}

async function listExamples(terminal: Terminal, env: CliEnvironmentOptions["env"]): Promise<void> {
  const { style } = terminal;
  // The catalog alone: listing loads none of the examples' agents.
  const examples = (await import("../../examples/catalog.js")).EXAMPLE_CATALOG;
  const width = Math.max(...examples.map((example) => example.name.length));
  terminal.out(style.bold("Examples:"));
  for (const example of examples) {
    terminal.out(`  ${style.cyan(example.name.padEnd(width))}  ${example.summary}`);
  }
  terminal.out();
  terminal.out("Run one offline on its recorded script:");
  const first = examples[0];
  if (first) terminal.out(`  ${commandName(env)} run ${first.name} "${first.sampleInput}" --scripted`);
  terminal.out(
    `Or run your own agents: ${commandName(env)} run ./dist/my-agents.js "<input>" (see docs/cli.md).`,
  );
}
