import type { LanguageModelV3 } from "@ai-sdk/provider";
import { AgentWorker } from "../distributed/agent-worker.js";
import { redactUrl } from "../distributed/queue-protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { AgentLike } from "../platform/agent.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { WorkerCommand } from "./cli-commands.js";
import { type EmbabelConfig, loadConfig } from "./cli-config.js";
import type { CliEnvironmentOptions } from "./cli-environment.js";
import { servedExamples } from "./example-catalog.js";
import type { ExampleDefinition } from "./example-definition.js";
import { EXIT_OK } from "./exit-status.js";
import { lazyModel } from "./lazy-model.js";
import { configForScriptedRun, mcpPlatformOptions } from "./mcp-setup.js";
import { selectModels } from "./model-selection.js";
import { scriptedExampleModel } from "./scripted-example-model.js";
import { indent } from "./terminal.js";
import { hasRecordedScript } from "./user-module.js";

/** Agents a worker serves, with the recorded script `--scripted` replays for each (when it has one). */
export interface WorkerAgents {
  readonly agents: readonly AgentLike[];
  readonly examples: readonly ExampleDefinition[];
}

/**
 * `embabel-ts worker`: deploys the agents of a module (the built-in examples
 * when none is given) and runs the processes queued on Redis until Ctrl-C,
 * then finishes the running ones and exits.
 */
export async function runWorker(command: WorkerCommand, options: CliEnvironmentOptions): Promise<number> {
  const { terminal } = options;
  const { style } = terminal;
  const served = workerAgents((await servedExamples(command.module, options.cwd)).examples);
  // The same config, MCP servers and tool groups `embabel-ts run` sets up.
  const loaded = command.scripted
    ? configForScriptedRun(options.cwd, command.config)
    : loadConfig(options.cwd, command.config);
  for (const note of loaded.notes) terminal.err(style.yellow(`note: ${note}`));
  const models = command.scripted ? undefined : configuredModels(loaded.config, command, options);
  const shared = deploy(
    AgentPlatform.create({
      name: "embabel-ts-worker",
      models: models?.models ?? {},
      ...(models ? { roles: models.roles } : {}),
      ...mcpPlatformOptions(loaded.config, served.examples, options.env),
    }),
    served.agents,
  );
  try {
    return await serve(shared, served, command, options);
  } finally {
    // Ends the MCP servers the worker's runs started (their child processes exit).
    await shared.close();
  }
}

async function serve(
  shared: AgentPlatform,
  served: WorkerAgents,
  command: WorkerCommand,
  options: CliEnvironmentOptions,
): Promise<number> {
  const { terminal } = options;
  const { style } = terminal;
  const exampleOf = new Map<string, ExampleDefinition>();
  for (const example of served.examples) {
    const probe = deploy(AgentPlatform.create({ models: {} }), example.agents as AgentLike[]);
    for (const agent of probe.agents) exampleOf.set(agent.name, example);
  }
  // With --scripted, each run gets a fresh platform replaying its example's script from the start;
  // it uses the shared platform's tool groups, so its MCP servers are started once per worker.
  const platformFor = (agentName: string): AgentPlatform => {
    const example = exampleOf.get(agentName);
    if (!command.scripted || !example) return shared;
    return deploy(
      AgentPlatform.create({
        name: "embabel-ts-worker",
        models: { default: scriptedExampleModel(example) },
        toolGroups: shared.toolGroups.groups(),
      }),
      example.agents as AgentLike[],
    );
  };
  const worker = await AgentWorker.start({
    connection: command.redis,
    platform: command.scripted ? platformFor : shared,
    concurrency: command.concurrency,
    ...(command.queue ? { queue: command.queue } : {}),
    ...(command.lockDurationMs ? { lockDurationMs: command.lockDurationMs } : {}),
    ...(command.stalledIntervalMs ? { stalledIntervalMs: command.stalledIntervalMs } : {}),
    onFinished: (process, { resumed }) => {
      const mark = process.status === "completed" ? style.green("✔") : style.red("✘");
      const reason =
        process.status === "completed" || !process.statusReason ? "" : `: ${process.statusReason}`;
      terminal.out(
        `${mark} ${process.agent?.name ?? "?"} ${process.id} ${process.status}${reason} ${style.dim(`(${process.history.length} actions${resumed ? ", resumed from checkpoint" : ""})`)}`,
      );
    },
  });
  terminal.out(
    `worker ${process.pid} · queue ${worker.queueName} on ${redactUrl(command.redis)} · concurrency ${command.concurrency} · agents [${shared.agents.map((agent) => agent.name).join(", ")}]${command.scripted ? " · scripted" : ""}`,
  );
  await new Promise<void>((resolveStop) => {
    if (options.signal?.aborted) resolveStop();
    options.signal?.addEventListener("abort", () => resolveStop(), { once: true });
  });
  terminal.out(style.dim(`stopping: finishing ${worker.activeCount} running process(es)…`));
  await worker.close();
  return EXIT_OK;
}

/** `platform` with `agents` deployed. */
function deploy(platform: AgentPlatform, agents: readonly AgentLike[]): AgentPlatform {
  for (const agent of agents) platform.deploy(agent);
  return platform;
}

/** Every agent of `examples`; the examples with a recorded script replay it under `--scripted`. */
function workerAgents(examples: readonly ExampleDefinition[]): WorkerAgents {
  return {
    examples: examples.filter(hasRecordedScript),
    agents: examples.flatMap((example) => example.agents as AgentLike[]),
  };
}

function configuredModels(
  config: EmbabelConfig,
  command: WorkerCommand,
  options: CliEnvironmentOptions,
): { models: Record<string, LanguageModelV3>; roles: Readonly<Record<string, string>> } | undefined {
  try {
    const selection = selectModels(config, options.env, command.model);
    const models: Record<string, LanguageModelV3> = {};
    for (const [name, id] of Object.entries(selection.models))
      models[name] = lazyModel(id, { env: options.env });
    return { models, roles: selection.roles };
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    options.terminal.err(
      options.terminal.style.yellow(
        "note: no model configured, so runs whose actions call an LLM will fail.",
      ),
    );
    // The whole configuration message: it lists what to set.
    options.terminal.err(indent(error.message));
    return undefined;
  }
}
