import { AwaitingResponse } from "../errors/awaiting-response.js";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import { currentToolCallId, endSpan, outsideToolCall, withSpan } from "../loop/loop-telemetry.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import { typeNameOf } from "../tool/type-token.js";
import type { Agent } from "./agent-interface.js";
import type { AgentPlatformApi } from "./agent-platform-api.js";
import { AgentProcess } from "./agent-process.js";
import type { AwaitableResponse, RespondOptions } from "./awaitable.js";
import type { OperationContext } from "./operation-context.js";
import type { ProcessControl } from "./process-control.js";
import { processEnding } from "./process-failure.js";
import { operationContext } from "./process-operation-context.js";
import { ProcessOptions } from "./process-options.js";
import type { RunProcessOptions } from "./process-runner.js";
import { startProcessSpan } from "./process-telemetry.js";
import { runAgentLoop } from "./run-agent-process.js";

export type { RunProcessOptions } from "./process-runner.js";

/** What the launcher needs of the platform (one object can serve every launch). */
export interface LaunchServices {
  /** A prompt runner for `OperationContext.ai()`. */
  readonly ai?: () => PromptRunner;
  /** The platform, recorded on the process (subagents run agents on it). */
  readonly platform?: AgentPlatformApi;
  /** Told of the process as soon as it exists, before it runs. */
  readonly onLaunch?: (process: AgentProcess) => void;
  /** Told of the process when it has ended, before the launch's promise resolves; must not throw. */
  readonly onEnd?: (process: AgentProcess) => void;
  /** Told of the process when it stopped `waiting` for a person, before the launch's (or respond's) promise resolves; must not throw. */
  readonly onWait?: (process: AgentProcess) => void;
}

/** What a waiting process needs to go on: its control and its loop (kept only while it waits; gone with the process). */
interface Suspended {
  readonly control: ProcessControl;
  readonly resume: () => Promise<AgentProcess>;
}

const suspended = new WeakMap<AgentProcess, Suspended>();

/**
 * Runs `agent` to the end in a new process: `input` is bound on the
 * blackboard as `it` and as its lower-camel type name (`WorksToFind` →
 * `worksToFind`). Never throws for what happens inside the run: the
 * returned process carries the status, reason, failure and result.
 */
export function launchAgent(
  agent: Agent,
  input: unknown,
  options: RunProcessOptions,
  services: LaunchServices,
): Promise<AgentProcess> {
  try {
    const { process, control } = launch(options, agent, services);
    services.onLaunch?.(process);
    const bound = input !== undefined && input !== null && !options.checkpoint;
    const loop = () => runAgentLoop(process, control, agent, services.ai, options.afterAction);
    // A checkpoint of a waiting process goes on: answered requests are applied, unanswered ones asked again.
    if (options.checkpoint?.status === "waiting") control.resume();
    // No async frame of its own: every suspended frame stays alive, per process, as long as the process waits.
    return run(
      process,
      control,
      agent.name,
      services,
      () => {
        // Bound once the process has started (still synchronously), so its object-added event follows process-started.
        if (bound) {
          process.blackboard.bind("it", input);
          process.blackboard.bind(lowerCamel(typeNameOf(input)), input);
        }
        return loop();
      },
      loop,
    );
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs `fn` inside a new process (scripts, tests, chat turns): inside it,
 * `AgentProcess.current()` is that process and prompt runners report to it.
 * Its return value is the process's result; a throw ends it `failed`
 * (`terminated` for a spent budget, `killed` when its signal aborted).
 */
export async function launchFunction<T>(
  fn: (context: OperationContext) => T | Promise<T>,
  options: RunProcessOptions,
  services: LaunchServices,
): Promise<AgentProcess> {
  const { process, control } = launch(options, undefined, services);
  return run(process, control, undefined, services, async () => {
    try {
      const result = await fn(operationContext(process, undefined, services.ai));
      control.finish("completed", undefined, { result });
    } catch (error) {
      const { status, reason, failure } = processEnding(error, process.signal);
      control.finish(status, reason, { failure });
    }
  });
}

function launch(
  options: RunProcessOptions,
  agent: Agent | undefined,
  services: LaunchServices,
): { process: AgentProcess; control: ProcessControl } {
  const own = options.signal;
  const inherited = options.parent?.signal;
  return AgentProcess.launch({
    agent,
    platform: services.platform,
    processOptions: options.processOptions ?? ProcessOptions.DEFAULT,
    parent: options.parent,
    id: options.id,
    checkpoint: options.checkpoint,
    signal: own && inherited ? AbortSignal.any([own, inherited]) : (own ?? inherited),
  });
}

/**
 * Runs `body` as the process (events, span, the ambient process), ends it,
 * tells `services.onEnd`, and resolves to it. A process left `waiting` is
 * kept with `resume` (its loop again) for {@link respondToProcess} and
 * `services.onWait` is told instead; `resumed` skips `process-started`.
 */
async function run(
  process: AgentProcess,
  control: ProcessControl,
  agentName: string | undefined,
  services: LaunchServices,
  body: () => Promise<void>,
  resume?: () => Promise<void>,
  resumed = false,
): Promise<AgentProcess> {
  if (control.observed && !resumed) {
    const parentToolCallId = process.parentId ? currentToolCallId() : undefined;
    control.emit({
      type: "process-started",
      ...(agentName ? { agent: agentName } : {}),
      ...(process.parentId ? { parentId: process.parentId } : {}),
      ...(parentToolCallId ? { parentToolCallId } : {}),
    });
  }
  const span = startProcessSpan(process, agentName);
  try {
    await (span.isRecording() || currentToolCallId() !== undefined
      ? outsideToolCall(() => withSpan(span, () => process.runWithin(body)))
      : process.runWithin(body));
  } catch (error) {
    if (AwaitingResponse.isInstance(error) && process.parentId !== undefined && !process.signal.aborted) {
      // A subagent's wait: its root process waits and answers it; this child ends here and runs again on resume.
      control.finish("waiting", "Waiting on its root process");
      endSpan(span, undefined);
      services.onEnd?.(process);
      throw error;
    }
    const { status, reason, failure } = processEnding(error, process.signal);
    control.finish(status, reason, { failure });
  }
  if (process.status === "waiting" && resume !== undefined) {
    endSpan(span, undefined, span.isRecording() ? { "embabel.process.status": "waiting" } : undefined);
    suspended.set(process, {
      control,
      resume: () => {
        suspended.delete(process);
        control.resume();
        return run(process, control, agentName, services, resume, resume, true);
      },
    });
    services.onWait?.(process);
    return process;
  }
  endSpan(
    span,
    process.status === "failed" ? process.failure : undefined,
    span.isRecording()
      ? {
          "embabel.process.status": process.status,
          ...(process.statusReason === undefined
            ? {}
            : { "embabel.process.status_reason": process.statusReason }),
        }
      : undefined,
  );
  if (control.observed) {
    control.emit({
      type: "process-finished",
      status: process.status,
      ...(process.statusReason === undefined ? {} : { reason: process.statusReason }),
      durationMs: process.runningTimeMs,
    });
  }
  services.onEnd?.(process);
  return process;
}

/** `lowerCamel` per type name: processes of one agent mostly bind inputs of the same few types. */
const lowerCamelNames = new Map<string, string>();

function lowerCamel(name: string): string {
  let lower = lowerCamelNames.get(name);
  if (lower === undefined) {
    lower = name.length === 0 ? name : name[0]?.toLowerCase() + name.slice(1);
    if (lowerCamelNames.size < 1000) lowerCamelNames.set(name, lower);
  }
  return lower;
}

/**
 * Answers request `requestId` of the waiting `process` (launched here): a bad
 * answer is an {@link InvalidResponseError} and the process keeps waiting.
 * Once no request is open, the process runs on from where it stopped; the
 * promise resolves when it ends or waits again (at once while requests stay open).
 */
export function respondToProcess(
  process: AgentProcess,
  requestId: string,
  response: AwaitableResponse,
  options: RespondOptions = {},
): Promise<AgentProcess> {
  const waiting = suspended.get(process);
  if (waiting === undefined || process.status !== "waiting") {
    return Promise.reject(
      new InvalidResponseError(
        `Process ${process.id} is not waiting (status ${process.status}).`,
        process.id,
        requestId,
      ),
    );
  }
  try {
    waiting.control.answer(requestId, response, options.respondent ?? "api");
  } catch (error) {
    return Promise.reject(error);
  }
  return process.awaiting.length > 0 ? Promise.resolve(process) : waiting.resume();
}

/** Denies the requests of the waiting `process` past their deadline ("timed out") and, once none is open, runs it on. */
export function expireWaits(process: AgentProcess, now = Date.now()): Promise<AgentProcess> {
  const waiting = suspended.get(process);
  if (waiting === undefined || process.status !== "waiting") return Promise.resolve(process);
  waiting.control.expire(now);
  return process.awaiting.length > 0 ? Promise.resolve(process) : waiting.resume();
}
