import { BullMqRunner } from "../distributed/bullmq-runner.js";
import { redactUrl } from "../distributed/queue-protocol.js";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AwaitableResponse } from "../platform/awaitable.js";
import { describeWaiting } from "./answer-waits.js";
import type { RespondCommand, WaitingCommand } from "./cli-args.js";
import { servedExamples } from "./example-catalog.js";
import { EXIT_FAILED, EXIT_OK, EXIT_WAITING } from "./exit-status.js";
import type { CliEnvironmentOptions } from "./run-cli.js";

/** A platform on `redis` that knows the agents of `module` (else the built-in examples): their types read the checkpoints. */
async function redisPlatform(
  redis: string,
  queue: string | undefined,
  module: string | undefined,
  cwd: string,
): Promise<AgentPlatform> {
  const { examples } = await servedExamples(module, cwd);
  const runner = await BullMqRunner.create({ connection: redis, ...(queue ? { queue } : {}) });
  const platform = AgentPlatform.create({ name: "embabel-ts-cli", models: {}, runner });
  for (const example of examples) {
    for (const agent of example.agents) platform.deploy(agent as Parameters<AgentPlatform["deploy"]>[0]);
  }
  return platform;
}

/**
 * `embabel-ts respond <process-id> <request-id> approve|deny|submit`: answers
 * a run waiting on Redis; once nothing is open, a worker continues it and the
 * command prints how it ended (or what it waits for next).
 */
export async function respondOnRedis(
  command: RespondCommand,
  options: CliEnvironmentOptions,
): Promise<number> {
  const { terminal } = options;
  const input = command.input === undefined ? undefined : JSON.parse(command.input);
  const response: AwaitableResponse =
    command.answer === "submit"
      ? (input as AwaitableResponse)
      : command.answer === "deny"
        ? command.reason === undefined
          ? { approved: false }
          : { approved: false, reason: command.reason }
        : input === undefined
          ? { approved: true }
          : { approved: true, input };
  const platform = await redisPlatform(command.redis, command.queue, command.module, options.cwd);
  try {
    terminal.out(
      `Answering ${command.requestId} of process ${command.processId} on ${redactUrl(command.redis)}…`,
    );
    const process = await platform.respond(command.processId, command.requestId, response, {
      respondent: "cli",
    });
    if (process.status === "waiting") {
      terminal.out(`Process ${process.id} is waiting for:`);
      for (const request of process.awaiting) describeWaiting(request, terminal);
      return EXIT_WAITING;
    }
    const line = `${process.status}${process.statusReason ? `: ${process.statusReason}` : ""}`;
    if (process.status !== "completed") {
      terminal.err(line);
      return EXIT_FAILED;
    }
    terminal.out(line);
    terminal.out(JSON.stringify(process.result, null, 2));
    return EXIT_OK;
  } catch (error) {
    if (!InvalidResponseError.isInstance(error)) throw error;
    terminal.err(`${terminal.style.red("error:")} ${error.message}`);
    return EXIT_FAILED;
  } finally {
    await platform.close();
  }
}

/** `embabel-ts waiting`: every run waiting on Redis, with its open requests and how to answer them. */
export async function waitingOnRedis(
  command: WaitingCommand,
  options: CliEnvironmentOptions,
): Promise<number> {
  const { terminal } = options;
  const platform = await redisPlatform(command.redis, command.queue, command.module, options.cwd);
  try {
    const runner = platform.runner as BullMqRunner;
    const waiting = await runner.waitingProcesses(platform);
    if (waiting.length === 0) {
      terminal.out("No run is waiting.");
      return EXIT_OK;
    }
    for (const process of waiting) {
      terminal.out(`${terminal.style.bold(process.id)} ${process.agent?.name ?? ""}`.trimEnd());
      for (const request of process.awaiting) describeWaiting(request, terminal);
    }
    terminal.out();
    terminal.out(
      `Answer one: embabel-ts respond ${command.module === undefined ? "" : `${command.module} `}<process-id> <request-id> approve|deny [--reason <r>] --redis ${redactUrl(command.redis)}`,
    );
    return EXIT_OK;
  } finally {
    await platform.close();
  }
}
