import { resolve } from "node:path";
import type { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import type { AwaitableResponse } from "../platform/awaitable.js";
import { startStudio } from "../studio/studio-server.js";
import { readTrace } from "../trace/read-trace.js";
import type { StudioCommand } from "./cli-commands.js";
import { loadConfig } from "./cli-config.js";
import type { CliEnvironmentOptions } from "./cli-environment.js";
import { servedExamples } from "./example-catalog.js";
import { EXIT_OK } from "./exit-status.js";
import { selectModels } from "./model-selection.js";
import { runExample } from "./run-example.js";
import { runHistoryDir } from "./run-history.js";
import { jsonOnlyTerminal } from "./terminal.js";
import { hasRecordedScript } from "./user-module.js";

/**
 * `embabel-ts studio`: serves the studio on 127.0.0.1 with the kept runs,
 * the trace files given, and runs started from the page, until interrupted.
 */
export async function runStudioCommand(
  command: StudioCommand,
  options: CliEnvironmentOptions,
): Promise<number> {
  const { terminal } = options;
  const { style } = terminal;
  const quiet = { ...jsonOnlyTerminal(terminal), err: () => {} };
  const models = configuredModelIds(command, options);
  // The module's agents (the built-in examples without one) are what the page starts.
  const served = await servedExamples(command.module, options.cwd);
  // The runs started from the page that wait for a person: the page's buttons answer them.
  const waiting = new Map<
    string,
    { platform: AgentPlatform; process: AgentProcess; done: (process: AgentProcess) => void }
  >();
  const studio = await startStudio({
    port: command.port,
    auth: command.auth ?? "token",
    models: Object.keys(models),
    keptDir: runHistoryDir(options.cwd, options.env),
    files: command.files.map((file) => resolve(options.cwd, file)),
    examples: served.examples.map((example) => ({
      name: example.name,
      summary: example.summary,
      sampleInput: example.sampleInput,
      ...(hasRecordedScript(example) ? {} : { scripted: false }),
    })),
    startRun: (request, hooks) =>
      runExample(
        {
          command: "run",
          // A module's agent is run from the module, by name, as `run <module> --agent <name>` does.
          ...(command.module === undefined
            ? { example: request.example }
            : { example: command.module, agent: request.example }),
          input: request.input,
          scripted: request.mode === "scripted",
          // A configured model's id, looked up by name: never an id or URL the page sent.
          model: request.model === undefined ? undefined : models[request.model],
          verbose: false,
          config: command.config,
        },
        { ...options, terminal: quiet },
        {
          ...hooks,
          onWaiting: (platform, process) =>
            new Promise<AgentProcess>((done) => {
              waiting.set(hooks.runId, { platform, process, done });
            }),
        },
      ),
    respond: async (runId, requestId, response) => {
      const entry = waiting.get(runId);
      if (!entry) throw new Error(`Run ${runId} is not waiting for an answer here.`);
      const next = await entry.platform.respond(entry.process.id, requestId, response as AwaitableResponse, {
        respondent: "studio",
      });
      if (next.status !== "waiting") {
        waiting.delete(runId);
        entry.done(next);
      }
    },
  });
  for (const file of command.files) {
    try {
      readTrace(resolve(options.cwd, file));
    } catch (error) {
      terminal.err(style.yellow(`note: ${(error as Error).message} (listed as unreadable)`));
    }
  }
  // The first URL on standard output is the one to open (scripts take it from there).
  terminal.out(
    `${style.bold("embabel-ts studio")} at ${style.cyan(studio.url)}  ${style.dim("(Ctrl-C stops it)")}`,
  );
  if (command.auth === "none") {
    terminal.err(
      style.yellow(
        "note: --no-token: any program or user on this machine can read these runs and start runs.",
      ),
    );
  }
  terminal.out(style.dim(`runs kept in ${runHistoryDir(options.cwd, options.env)}`));
  if (served.name !== undefined) {
    terminal.out(
      style.dim(`agents of ${served.name}: ${served.examples.map((example) => example.name).join(", ")}`),
    );
  }
  await new Promise<void>((done) => {
    if (!options.signal) return; // no way to stop: serve until the program ends
    if (options.signal.aborted) done();
    else options.signal.addEventListener("abort", () => done(), { once: true });
  });
  await studio.close();
  return EXIT_OK;
}

/** The models runs started from the page may use: by name, from the config file and the environment (none when nothing is configured). */
function configuredModelIds(command: StudioCommand, options: CliEnvironmentOptions): Record<string, string> {
  try {
    return { ...selectModels(loadConfig(options.cwd, command.config).config, options.env, undefined).models };
  } catch {
    return {}; // nothing configured (or a config the runs will report): scripted runs only
  }
}
