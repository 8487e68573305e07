import { BullMqRunner } from "../distributed/bullmq-runner.js";
import { redactUrl } from "../distributed/queue-protocol.js";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import type { AgentLike } from "../platform/agent.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import type { AwaitableResponse } from "../platform/awaitable.js";
import { describeWaiting, queueFlag } from "./answer-waits.js";
import type { RespondCommand, WaitingCommand } from "./cli-commands.js";
import type { CliEnvironmentOptions } from "./cli-environment.js";
import { servedExamples } from "./example-catalog.js";
import { EXIT_FAILED, EXIT_OK, EXIT_WAITING } from "./exit-status.js";

/**
 * A platform on `redis` that knows the agents of `module` (like `worker`), or
 * the built-in examples' agents: their types read the checkpoints whole.
 */
async function redisPlatform(
  command: RespondCommand | WaitingCommand,
  options: CliEnvironmentOptions,
): Promise<AgentPlatform> {
  const { examples } = await servedExamples(command.module, options.cwd);
  const runner = await BullMqRunner.create({
    connection: command.redis,
    ...(command.queue ? { queue: command.queue } : {}),
  });
  const platform = AgentPlatform.create({ name: "embabel-ts-cli", models: {}, runner });
  for (const example of examples) {
    for (const agent of example.agents) platform.deploy(agent as AgentLike);
  }
  return platform;
}

function responseOf(command: RespondCommand): AwaitableResponse {
  const input = command.input === undefined ? undefined : JSON.parse(command.input);
  if (command.answer === "submit") return input as AwaitableResponse;
  if (command.answer === "deny")
    return command.reason === undefined ? { approved: false } : { approved: false, reason: command.reason };
  return input === undefined ? { approved: true } : { approved: true, input };
}

/**
 * `embabel-ts respond [<module>] <process-id> <request-id> approve|deny|submit`:
 * stores the answer in the run's checkpoint on Redis and returns ("answered;
 * queued for a worker"); any worker then continues the run. With `--wait <s>`
 * it waits up to that long and prints how the run ended (or what it waits for
 * next); Ctrl-C or SIGTERM stops the waiting, never the stored answer.
 */
export async function respondOnRedis(
  command: RespondCommand,
  options: CliEnvironmentOptions,
): Promise<number> {
  const { terminal } = options;
  const response = responseOf(command);
  const platform = await redisPlatform(command, options);
  const runner = platform.runner as BullMqRunner;
  try {
    terminal.out(
      `Answering ${command.requestId} of process ${command.processId} on ${redactUrl(command.redis)}${queueFlag(command.queue) ? ` (queue '${runner.queueName}')` : ""}…`,
    );
    const stored = await runner.answer(command.processId, command.requestId, response, {
      respondent: "cli",
    });
    if (stored.resumeJobId === undefined) {
      terminal.out(`answered; process ${command.processId} still waits for:`);
      for (const request of stored.open) describeWaiting(request, terminal);
      return EXIT_WAITING;
    }
    terminal.out("answered; queued for a worker");
    const waitSeconds = command.waitSeconds ?? 0;
    if (waitSeconds <= 0 || options.signal?.aborted) {
      await sayWhenNoWorker(runner, command, terminal);
      return EXIT_OK;
    }
    const process = await runner.resumed(command.processId, stored.resumeJobId, platform, {
      timeoutMs: waitSeconds * 1000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (process === undefined) {
      const why = options.signal?.aborted ? "stopped waiting" : `not finished after ${waitSeconds} s`;
      terminal.err(terminal.style.dim(`${why}; the answer is stored and a worker continues the run.`));
      await sayWhenNoWorker(runner, command, terminal);
      return EXIT_OK;
    }
    return printEnding(process, command, terminal);
  } catch (error) {
    if (!InvalidResponseError.isInstance(error)) throw error;
    terminal.err(`${terminal.style.red("error:")} ${error.message}`);
    return EXIT_FAILED;
  } finally {
    await platform.close();
  }
}

/** Says so on stderr when no worker is connected to the queue, and how to start one. */
async function sayWhenNoWorker(
  runner: BullMqRunner,
  command: RespondCommand,
  terminal: CliEnvironmentOptions["terminal"],
): Promise<void> {
  if ((await runner.workerCount()) !== 0) return;
  terminal.err(
    terminal.style.dim(
      `no worker is connected to queue '${runner.queueName}'; the run continues when one starts: embabel-ts worker${command.module ? ` ${command.module}` : ""} --redis ${redactUrl(command.redis)}${queueFlag(command.queue)}`,
    ),
  );
}

function printEnding(
  process: AgentProcess,
  command: RespondCommand,
  terminal: CliEnvironmentOptions["terminal"],
): number {
  if (process.status === "waiting") {
    terminal.out(`Process ${process.id} is waiting for:`);
    for (const request of process.awaiting) describeWaiting(request, terminal);
    terminal.out(answerHint(command));
    return EXIT_WAITING;
  }
  const line = `${process.status}${process.statusReason ? `: ${process.statusReason}` : ""}`;
  if (process.status !== "completed") {
    terminal.err(line);
    return EXIT_FAILED;
  }
  terminal.out(line);
  if (process.result !== undefined) terminal.out(JSON.stringify(process.result, null, 2));
  return EXIT_OK;
}

function answerHint(command: RespondCommand | WaitingCommand): string {
  const module = command.module ? `${command.module} ` : "";
  return `Answer one: embabel-ts respond ${module}<process-id> <request-id> approve|deny [--reason <r>] --redis ${redactUrl(command.redis)}${queueFlag(command.queue)}`;
}

/**
 * `embabel-ts waiting [<module>]`: every run waiting on Redis, with its open
 * requests and how to answer them. A run whose checkpoint holds types not
 * known here (give the module) is listed from its plain request data.
 */
export async function waitingOnRedis(
  command: WaitingCommand,
  options: CliEnvironmentOptions,
): Promise<number> {
  const { terminal } = options;
  const platform = await redisPlatform(command, options);
  try {
    const runner = platform.runner as BullMqRunner;
    const waiting = await runner.waitingProcesses(platform);
    if (waiting.length === 0) {
      terminal.out("No run is waiting.");
      return EXIT_OK;
    }
    for (const process of waiting) {
      const agent = process.agent?.name ?? "";
      terminal.out(`${terminal.style.bold(process.id)} ${agent}`.trimEnd());
      for (const request of process.awaiting) describeWaiting(request, terminal);
    }
    terminal.out();
    terminal.out(answerHint(command));
    return EXIT_OK;
  } finally {
    await platform.close();
  }
}
