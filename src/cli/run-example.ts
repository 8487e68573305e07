import type { LanguageModelV3 } from "@ai-sdk/provider";
import { modelFromId } from "../llm/model-id.js";
import { AgentPlatform } from "../mcp/agent-platform.js";
import type { Agent } from "../platform/agent.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { ProcessOptions } from "../platform/process-options.js";
import { Verbosity } from "../platform/verbosity.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { RunCommand } from "./cli-args.js";
import { loadConfig } from "./cli-config.js";
import { findExample } from "./example-catalog.js";
import type { ExampleDefinition } from "./example-definition.js";
import { EXIT_FAILED, EXIT_OK } from "./exit-status.js";
import { lazyModel } from "./lazy-model.js";
import { mcpPlatformOptions } from "./mcp-setup.js";
import { selectModels } from "./model-selection.js";
import { formatDuration, ProcessReporter } from "./process-reporter.js";
import type { CliEnvironmentOptions } from "./run-cli.js";
import { indent, type Terminal } from "./terminal.js";

/** The models a CLI platform gets. */
export interface PreparedModels {
  readonly models: Record<string, LanguageModelV3>;
  readonly roles: Readonly<Record<string, string>>;
  /** For the banner. */
  readonly description: string;
}

/**
 * `embabel-ts run`: finds the example, chooses the models (or the recorded
 * script), deploys the example's agents, runs the first one on the input,
 * and prints the plan, each action and tool call, and the result.
 */
export async function runExample(command: RunCommand, options: CliEnvironmentOptions): Promise<number> {
  const { terminal } = options;
  const { style } = terminal;
  const example = await findExample(command.example, options.cwd);
  const loaded = loadConfig(options.cwd, command.config);
  const models = command.scripted
    ? scriptedModels(example, terminal, command)
    : await configuredModels(loaded.config, options, command);
  for (const note of loaded.notes) terminal.err(style.yellow(`note: ${note}`));

  const platform = AgentPlatform.create({
    name: "embabel-ts-cli",
    models: models.models,
    roles: models.roles,
    ...mcpPlatformOptions(loaded.config, [example], options.env),
  });
  try {
    return await runOn(platform, example, models, command, options);
  } finally {
    await platform.close();
  }
}

async function runOn(
  platform: AgentPlatform,
  example: ExampleDefinition,
  models: PreparedModels,
  command: RunCommand,
  options: CliEnvironmentOptions,
): Promise<number> {
  const { terminal } = options;
  const { style } = terminal;
  const [main] = example.agents.map((agent) =>
    platform.deploy(agent as Parameters<AgentPlatform["deploy"]>[0]),
  );
  const agent = main as Agent;
  const text = command.input ?? example.sampleInput;

  terminal.out(
    `${style.bold(example.name)} ${style.dim("·")} agent ${style.bold(agent.name)} ${style.dim("·")} ${models.description}`,
  );
  terminal.out(`${style.dim("input:")} ${text}`);
  terminal.out();

  const reporter = new ProcessReporter(terminal, { verbose: command.verbose });
  let processOptions = ProcessOptions.DEFAULT.withListener(reporter.listener).withOutputChannel(
    reporter.outputChannel,
  );
  if (command.verbose) {
    processOptions = processOptions.withVerbosity(
      new Verbosity().withShowPrompts(true).withShowLlmResponses(true),
    );
  }
  const process = await platform.runAgent(agent, example.input(text), {
    processOptions,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  terminal.out();
  printOutcome(terminal, process, reporter);
  if (process.status !== "completed") return EXIT_FAILED;
  terminal.out();
  terminal.out(style.bold("Result:"));
  terminal.out(indent(formatResult(example, process.result)));
  return EXIT_OK;
}

function scriptedModels(example: ExampleDefinition, terminal: Terminal, command: RunCommand): PreparedModels {
  if (command.model)
    terminal.err(terminal.style.yellow(`note: --model ${command.model} is ignored with --scripted.`));
  const model = new ScriptedModel(example.script());
  return {
    models: { default: model },
    roles: { default: "default" },
    description: "model scripted (the example's recorded replies; no network)",
  };
}

/** The models of the config file, `--model` and the environment, each reporting its prompts. */
export async function configuredModels(
  config: Parameters<typeof selectModels>[0],
  options: CliEnvironmentOptions,
  command: Pick<RunCommand, "model">,
): Promise<PreparedModels> {
  const selection = selectModels(config, options.env, command.model);
  const defaultName = selection.roles.default ?? "default";
  const models: Record<string, LanguageModelV3> = {};
  for (const [name, id] of Object.entries(selection.models)) {
    const model =
      name === defaultName
        ? await modelFromId(id, { env: options.env })
        : lazyModel(id, { env: options.env });
    models[name] = model;
  }
  return {
    models,
    roles: selection.roles,
    description: `model ${selection.models[defaultName] ?? defaultName} ${options.terminal.style.dim(`(from ${selection.source})`)}`,
  };
}

function printOutcome(terminal: Terminal, process: AgentProcess, reporter: ProcessReporter): void {
  const { style } = terminal;
  const totals = reporter.totals;
  const facts = [
    formatDuration(process.runningTimeMs),
    `${process.history.length} action${process.history.length === 1 ? "" : "s"}`,
    `${totals.llmCalls} LLM call${totals.llmCalls === 1 ? "" : "s"}`,
    `${totals.toolCalls} tool call${totals.toolCalls === 1 ? "" : "s"}`,
    `${totals.tokens} tokens`,
  ];
  if (totals.processes > 1)
    facts.push(`${totals.processes - 1} subagent run${totals.processes === 2 ? "" : "s"}`);
  if (process.costUsd > 0) facts.push(`$${process.costUsd.toFixed(4)}`);
  const summary = style.dim(facts.join(" · "));
  if (process.status === "completed") {
    terminal.out(`${style.green("✔ completed")} ${summary}`);
    return;
  }
  const reason = process.statusReason ? `: ${process.statusReason}` : "";
  terminal.err(`${style.red(`✘ ${process.status}`)}${reason}`);
  terminal.err(summary);
}

function formatResult(example: ExampleDefinition, result: unknown): string {
  if (example.formatResult) return example.formatResult(result);
  if (typeof result === "string") return result;
  return JSON.stringify(result, null, 2) ?? String(result);
}
