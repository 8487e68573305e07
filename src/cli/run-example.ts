import { ConfigurationError } from "../errors/configuration-error.js";
import type { RunCommand } from "./cli-args.js";
import { loadConfig } from "./cli-config.js";
import { findExample } from "./example-catalog.js";
import { selectModels } from "./model-selection.js";
import type { CliEnvironmentOptions } from "./run-cli.js";

/** `embabel-ts run`: finds the example, chooses the model, runs the agent and prints what happens. */
export async function runExample(command: RunCommand, options: CliEnvironmentOptions): Promise<number> {
  const example = await findExample(command.example, options.cwd);
  const loaded = loadConfig(options.cwd, command.config);
  if (!command.scripted) selectModels(loaded.config, options.env, command.model);
  throw new ConfigurationError(`Running ${example.name} is not available yet.`);
}
