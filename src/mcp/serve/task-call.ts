import type { CallToolResult, McpServer, ServerContext } from "@modelcontextprotocol/server";
import { ConfigurationError } from "../../errors/configuration-error.js";
import type { AgentPlatform } from "../../platform/agent-platform.js";
import type { McpServerCallTarget } from "./mcp-server-call.js";
import {
  declaresTasks,
  type McpServerTasksOptions,
  ServedTasks,
  type TaskRound,
  type TaskRoundOutcome,
  taskOwner,
  tasksRequired,
} from "./served-tasks.js";
import { resumeWait, waitStateOf } from "./task-waits.js";

// The hook of `tools/call` into served tasks: whether a call runs as a task,
// and the call target each round of the task's work runs with.

/** A served call that may run as a task. */
export interface TaskCandidate {
  /** The tool's name. */
  readonly name: string;
  /** Whether it is a served agent. */
  readonly agent: boolean;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The platform that answers the waiting agent process `processId` (a served agent's). */
  readonly platformOf: (processId: string) => AgentPlatform | undefined;
  /** Runs one round of the call with `target`. */
  readonly round: (target: McpServerCallTarget) => Promise<TaskRoundOutcome>;
}

/**
 * The call target of a task's round: the request's server and client
 * capabilities, the task's signal, nothing sent to the client (the request
 * that started the task has been answered); the first round carries the
 * request's own answers and state (a call that asked for input before it
 * became a task), later ones those of `tasks/update`.
 */
function roundTarget(site: McpServerCallTarget, round: TaskRound, first: boolean): McpServerCallTarget {
  const inputResponses = first ? site.inputResponses : round.inputResponses;
  const requestState = first ? site.requestState : round.requestState;
  return {
    server: site.server,
    requestId: site.requestId,
    progressToken: undefined,
    signal: round.signal,
    sendNotification: async () => undefined,
    minimumLevel: () => undefined,
    modern: true,
    inTask: true,
    ...(inputResponses === undefined ? {} : { inputResponses }),
    ...(requestState === undefined ? {} : { requestState }),
  };
}

/**
 * The `CreateTaskResult` of `call` when it runs as a task (MCP 2026-07-28,
 * the client declared the extension, the tool supports tasks);
 * `undefined` when it is answered in the request. A tool that requires
 * tasks, called by a client without the extension, is refused (-32021).
 */
export function startedAsTask(
  tasks: ServedTasks | undefined,
  server: McpServer,
  ctx: ServerContext,
  site: McpServerCallTarget,
  call: TaskCandidate,
): Promise<CallToolResult> | undefined {
  if (!tasks || !site.modern) return undefined;
  const support = tasks.supportFor(call.name, call.agent, {
    arguments: call.arguments,
    ...(site.inputResponses === undefined ? {} : { inputResponses: site.inputResponses }),
  });
  if (support === undefined) return undefined;
  if (!declaresTasks(server, ctx)) {
    if (support === "required") throw tasksRequired(`Tool ${call.name}`);
    return undefined;
  }
  let first = true;
  return tasks.start(taskOwner(ctx), async (round) => {
    const target = roundTarget(site, round, first);
    first = false;
    // An agent process waiting for a person: answered, and run on (not started again).
    const wait = waitStateOf(round.requestState);
    const platform = wait ? call.platformOf(wait.processId) : undefined;
    if (wait && !platform) throw new Error(`No platform answers the waiting process ${wait.processId}.`);
    const outcome =
      wait && platform ? await resumeWait(platform, wait, round.inputResponses) : await call.round(target);
    const waiting = "input" in outcome ? waitStateOf(outcome.input.state) : undefined;
    const waitsOn = waiting ? call.platformOf(waiting.processId) : undefined;
    // Cancelling (or expiring) the task kills the process that waits in it.
    if (waiting && waitsOn) {
      round.signal.addEventListener("abort", () => void killWaiting(waitsOn, waiting), { once: true });
    }
    return outcome;
  });
}

/** The tasks of a server given `options` (`servesAgents`: a platform's agents); `undefined` when nothing runs as a task. */
export function servedTasks(
  options: McpServerTasksOptions | false | undefined,
  servesAgents: boolean,
  byName: ReadonlyMap<string, unknown>,
): ServedTasks | undefined {
  if (options === false || (options === undefined && !servesAgents)) return undefined;
  const tasks = new ServedTasks(options ?? {});
  const unknown = tasks.toolNames.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `createMcpServer: tasks.tools names tools that are not served: ${unknown.join(", ")}. Served tools: ${[...byName.keys()].join(", ")}`,
    );
  }
  return tasks;
}

/**
 * Kills the agent process waiting in a cancelled task: its signal is aborted,
 * and its open request is denied so the parked run resumes and ends `killed`
 * at once (none of its tools run).
 */
async function killWaiting(
  platform: AgentPlatform,
  wait: { readonly processId: string; readonly requestId: string },
): Promise<void> {
  const reason = "The task was cancelled.";
  try {
    const process = await platform.process(wait.processId);
    if (process?.status !== "waiting") return;
    process.kill(reason);
    await platform.respond(
      wait.processId,
      wait.requestId,
      { approved: false, reason },
      { respondent: "mcp" },
    );
  } catch {
    // Ended meanwhile, or the request takes another answer (a form): the process stays parked, its signal aborted.
  }
}
