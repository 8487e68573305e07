import type { LanguageModelV3 } from "@ai-sdk/provider";
import { BullMqRunner } from "../distributed/bullmq-runner.js";
import { redactUrl } from "../distributed/queue-protocol.js";
import { DEFAULT_OLLAMA_BASE_URL, modelFromId, parseModelId } from "../llm/model-id.js";
import type { Agent } from "../platform/agent.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { ProcessOptions } from "../platform/process-options.js";
import type { ProcessHandle } from "../platform/process-runner.js";
import { Verbosity } from "../platform/verbosity.js";
import { answerWaits, printUnanswered } from "./answer-waits.js";
import type { RunCommand } from "./cli-commands.js";
import { loadConfig } from "./cli-config.js";
import type { CliEnvironmentOptions } from "./cli-environment.js";
import { findExample } from "./example-catalog.js";
import type { ExampleDefinition } from "./example-definition.js";
import { EXIT_FAILED, EXIT_OK, EXIT_WAITING } from "./exit-status.js";
import { describeType, startingType } from "./input-from-text.js";
import { lazyModel } from "./lazy-model.js";
import { configForScriptedRun, mcpPlatformOptions } from "./mcp-setup.js";
import { selectModels } from "./model-selection.js";
import { isModulePath } from "./module-path.js";
import { ProcessReporter } from "./process-reporter.js";
import { type QueueWaitOptions, watchQueueWait } from "./queue-wait.js";
import { openRunRecording, type RunRecordingHooks } from "./run-recording.js";
import { scriptedExampleModel } from "./scripted-example-model.js";
import { skillDirectories, skillsToolGroups } from "./skills-setup.js";
import { indent, jsonOnlyTerminal, type Terminal } from "./terminal.js";
import { UsageError } from "./usage-error.js";

/** The models a CLI platform gets. */
export interface PreparedModels {
  readonly models: Record<string, LanguageModelV3>;
  readonly roles: Readonly<Record<string, string>>;
  /** For the banner. */
  readonly description: string;
  /** The Ollama server the models use, when one of them is an `ollama:` model. */
  readonly ollamaBaseURL?: string;
}

/**
 * `embabel-ts run`: finds the example, chooses the models (or the recorded
 * script), deploys the example's agents, runs the first one on the input,
 * and prints the plan, each action and tool call, and the result.
 */
export async function runExample(
  command: RunCommand,
  options: CliEnvironmentOptions,
  hooks: RunRecordingHooks = {},
): Promise<number> {
  // With --json, standard output carries only the trace lines.
  const display = command.json ? { ...options, terminal: jsonOnlyTerminal(options.terminal) } : options;
  const { terminal } = display;
  const { style } = terminal;
  const example = await findExample(command.example, options.cwd, command.agent);
  const loaded = command.scripted
    ? configForScriptedRun(options.cwd, command.config)
    : loadConfig(options.cwd, command.config);
  const models = command.redis
    ? queuedModels(command.redis, terminal, command)
    : command.scripted
      ? scriptedModels(example, terminal, command)
      : await configuredModels(loaded.config, options, command);
  for (const note of loaded.notes) terminal.err(style.yellow(`note: ${note}`));
  const skillGroups = await skillsToolGroups(
    skillDirectories(loaded.config, [example], command.skills, options.cwd),
  );

  const runner = command.redis
    ? await BullMqRunner.create({
        connection: command.redis,
        ...(command.queue ? { queue: command.queue } : {}),
        ...(command.stalledIntervalMs ? { stalledIntervalMs: command.stalledIntervalMs } : {}),
      })
    : undefined;
  const mcp = mcpPlatformOptions(loaded.config, [example], options.env);
  const platform = AgentPlatform.create({
    name: "embabel-ts-cli",
    models: models.models,
    roles: models.roles,
    ...(runner ? { runner } : {}),
    ...mcp,
    toolGroups: { ...mcp.toolGroups, ...skillGroups },
  });
  try {
    return await runOn(platform, example, models, command, display, { out: options.terminal, hooks }, runner);
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
  recordingTo: { readonly out: Terminal; readonly hooks: RunRecordingHooks },
  runner: BullMqRunner | undefined,
): Promise<number> {
  const { terminal } = options;
  const { style } = terminal;
  const [main] = example.agents.map((agent) =>
    platform.deploy(agent as Parameters<AgentPlatform["deploy"]>[0]),
  );
  const agent = main as Agent;
  const text = command.input ?? example.sampleInput;
  if (text.trim() === "") {
    throw new UsageError(
      `'run' needs an input for agent '${agent.name}', which starts from ${describeType(startingType(agent))}: embabel-ts run ${command.example} "<input>"`,
    );
  }
  // The input is made before the run starts: a bad one is a usage error, not a failed run.
  const input = example.input(text);

  terminal.out(
    `${style.bold(example.name)} ${style.dim("·")} agent ${style.bold(agent.name)} ${style.dim("·")} ${models.description}`,
  );
  terminal.out(`${style.dim("input:")} ${text}`);
  if (command.scripted && text !== example.sampleInput) {
    terminal.err(
      style.yellow(
        `note: --scripted replays replies recorded for the sample input ("${example.sampleInput}"): with another input the answer below is a recorded replay, not a model's answer to yours.`,
      ),
    );
  }
  terminal.out();

  const recording = openRunRecording(
    {
      example: example.name,
      trace: command.trace,
      json: command.json === true,
      noKeepRuns: command.noKeepRuns === true,
    },
    { terminal: recordingTo.out, cwd: options.cwd, env: options.env },
    {
      example: example.name,
      agent: agent.name,
      input: text,
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the banner's colour codes
      model: models.description.replace(/\u001b\[\d+m/g, ""),
    },
    recordingTo.hooks,
  );
  const reporter = new ProcessReporter(terminal, { verbose: command.verbose });
  let processOptions = ProcessOptions.DEFAULT.withListener(reporter.listener).withOutputChannel(
    reporter.outputChannel,
  );
  if (command.verbose) {
    processOptions = processOptions.withVerbosity(
      new Verbosity().withShowPrompts(true).withShowLlmResponses(true),
    );
  }
  const runOptions = {
    processOptions: recording.attach(processOptions),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let process =
    runner && command.redis
      ? await resultFromWorkers(platform.startAgent(agent, input, runOptions), {
          runner,
          redis: command.redis,
          waitTimeoutSeconds: command.waitTimeoutSeconds,
          terminal,
          signal: options.signal,
        })
      : await platform.runAgent(agent, input, runOptions);
  if (process.status === "waiting" && recordingTo.hooks.onWaiting) {
    process = await recordingTo.hooks.onWaiting(platform, process);
  }
  if (process.status === "waiting") {
    process = await answerWaits(platform, process, command.approvals ?? "ask", terminal, options.ask);
  }
  recording.finish(process);
  terminal.out();
  if (process.status === "waiting") {
    printUnanswered(
      process,
      terminal,
      command.redis === undefined ? undefined : redactUrl(command.redis),
      // A module's runs are answered with the module, whose agents read the checkpoint.
      isModulePath(command.example) ? command.example : undefined,
      command.queue,
    );
    return EXIT_WAITING;
  }
  printOutcome(terminal, process, reporter);
  if (process.status !== "completed") {
    if (models.ollamaBaseURL && isConnectionFailure(process.statusReason)) {
      terminal.err(
        `Is Ollama running at ${models.ollamaBaseURL}? Start it (ollama serve) and pull the model (ollama pull <model>), or set OLLAMA_BASE_URL to where it runs.`,
      );
    }
    return EXIT_FAILED;
  }
  terminal.out();
  terminal.out(style.bold("Result:"));
  terminal.out(indent(formatResult(example, process.result)));
  return EXIT_OK;
}

/** The run sent to workers, saying so while none has taken it, and cancelling it after --wait-timeout. */
async function resultFromWorkers(
  started: Promise<ProcessHandle>,
  options: Omit<QueueWaitOptions, "handle">,
): Promise<AgentProcess> {
  const handle = await started;
  const stopWatching = watchQueueWait({ ...options, handle });
  try {
    return await handle.result();
  } finally {
    stopWatching();
  }
}

function queuedModels(redis: string, terminal: Terminal, command: RunCommand): PreparedModels {
  if (command.model) {
    terminal.err(
      terminal.style.yellow(
        `note: --model ${command.model} is ignored with --redis: the workers choose their models.`,
      ),
    );
  }
  return {
    models: {},
    roles: {},
    description: `queued on ${redactUrl(redis)} (the workers' models${command.scripted ? "; start them with --scripted to replay the script" : ""})`,
  };
}

function scriptedModels(example: ExampleDefinition, terminal: Terminal, command: RunCommand): PreparedModels {
  if (command.model)
    terminal.err(terminal.style.yellow(`note: --model ${command.model} is ignored with --scripted.`));
  const recorded = example.recordedWith;
  return {
    models: { default: scriptedExampleModel(example) },
    roles: { default: "default" },
    description: `model scripted (the example's recorded replies${recorded ? ` from ${recorded}` : ""}; no network)`,
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
  const usesOllama = Object.values(selection.models).some((id) => parseModelId(id).provider === "ollama");
  return {
    models,
    roles: selection.roles,
    ...(usesOllama ? { ollamaBaseURL: options.env.OLLAMA_BASE_URL ?? DEFAULT_OLLAMA_BASE_URL } : {}),
    description: `model ${selection.models[defaultName] ?? defaultName} ${options.terminal.style.dim(`(from ${selection.source})`)}`,
  };
}

function printOutcome(terminal: Terminal, process: AgentProcess, reporter: ProcessReporter): void {
  const summary =
    reporter.summary() ?? `${process.status}${process.statusReason ? `: ${process.statusReason}` : ""}`;
  if (process.status === "completed") terminal.out(summary);
  else terminal.err(summary);
}

/** True for the messages of a server that could not be reached. */
function isConnectionFailure(reason: string | undefined): boolean {
  return /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|Cannot connect|fetch failed/i.test(reason ?? "");
}

function formatResult(example: ExampleDefinition, result: unknown): string {
  if (example.formatResult) return example.formatResult(result);
  if (typeof result === "string") return result;
  return JSON.stringify(result, null, 2) ?? String(result);
}
