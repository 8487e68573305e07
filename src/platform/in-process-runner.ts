import { ConfigurationError } from "../errors/configuration-error.js";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import type { Agent } from "./agent-interface.js";
import type { AgentPlatformApi } from "./agent-platform-api.js";
import type { AgentProcess } from "./agent-process.js";
import type { AwaitableResponse, RespondOptions } from "./awaitable.js";
import {
  expireWaits,
  type LaunchServices,
  launchAgent,
  type RunProcessOptions,
  respondToProcess,
} from "./process-launcher.js";
import type { ProcessHandle, ProcessRunner } from "./process-runner.js";

/** Options of {@link InProcessRunner}. */
export interface InProcessRunnerOptions {
  /** How many finished processes `platform.process(id)` still finds (oldest forgotten first). @default 100 */
  readonly keepFinished?: number;
}

/**
 * Runs every process in the caller's Node process: the default runner. A
 * waiting process stays findable (`platform.process(id)`) and holds only its
 * state; requests with a deadline share one unref'd timer per process.
 */
export class InProcessRunner implements ProcessRunner {
  private readonly running = new Map<string, AgentProcess>();
  private readonly finished = new Map<string, AgentProcess>();
  private readonly servicesByPlatform = new WeakMap<AgentPlatformApi, LaunchServices>();
  private readonly keepFinished: number;
  private readonly deadlines = new Map<string, NodeJS.Timeout>();

  constructor(options: InProcessRunnerOptions = {}) {
    this.keepFinished = options.keepFinished ?? 100;
  }

  async start(
    agent: Agent | string,
    input: unknown,
    options: RunProcessOptions,
    platform: AgentPlatformApi,
  ): Promise<ProcessHandle> {
    let started: AgentProcess | undefined;
    const done = this.launch(agent, input, options, platform, (launched) => {
      started = launched;
    });
    // A launch that fails before the process exists (a bad option) rejects `done`: that is start()'s error.
    if (started === undefined) await done;
    const process = started as unknown as AgentProcess;
    return {
      id: process.id,
      result: () => done,
      kill: async (reason) => process.kill(reason),
    };
  }

  /** Runs `agent` to the end, as {@link InProcessRunner.start} and then `result()` do, without the handle (what `platform.runAgent` needs). */
  run(
    agent: Agent | string,
    input: unknown,
    options: RunProcessOptions,
    platform: AgentPlatformApi,
  ): Promise<AgentProcess> {
    try {
      return this.launch(agent, input, options, platform);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private launch(
    agent: Agent | string,
    input: unknown,
    options: RunProcessOptions,
    platform: AgentPlatformApi,
    onLaunch?: (process: AgentProcess) => void,
  ): Promise<AgentProcess> {
    const resolved = typeof agent === "string" ? requireAgent(platform, agent) : agent;
    return launchAgent(
      resolved,
      input,
      options,
      onLaunch ? this.servicesWith(platform, onLaunch) : this.services(platform),
    );
  }

  /** The launch services for `platform`, made once per platform: no closures per process. */
  private services(platform: AgentPlatformApi): LaunchServices {
    let services = this.servicesByPlatform.get(platform);
    if (!services) {
      services = {
        ai: () => platform.ai(),
        platform,
        onLaunch: (launched) => {
          this.running.set(launched.id, launched);
        },
        onEnd: (finished) => this.ended(finished),
        onWait: (waiting) => this.waiting(waiting),
      };
      this.servicesByPlatform.set(platform, services);
    }
    return services;
  }

  /** {@link InProcessRunner.services} that also tell `onLaunch` of the new process. */
  private servicesWith(
    platform: AgentPlatformApi,
    onLaunch: (process: AgentProcess) => void,
  ): LaunchServices {
    const services = this.services(platform);
    return {
      ...services,
      onLaunch: (launched) => {
        services.onLaunch?.(launched);
        onLaunch(launched);
      },
    };
  }

  /** Answers a request of a waiting process run here; see `AgentPlatform.respond`. */
  respond(
    id: string,
    requestId: string,
    response: AwaitableResponse,
    options: RespondOptions = {},
  ): Promise<AgentProcess> {
    const process = this.running.get(id) ?? this.finished.get(id);
    if (process === undefined)
      return Promise.reject(
        new InvalidResponseError(`No process with id ${id} is known here.`, id, requestId),
      );
    return respondToProcess(process, requestId, response, options);
  }

  /** Forgets the waiting process `id` (a queue worker stored its checkpoint; the answer resumes it from there). */
  release(id: string): void {
    const process = this.running.get(id);
    if (process === undefined || process.status !== "waiting") return;
    this.running.delete(id);
    const timer = this.deadlines.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.deadlines.delete(id);
  }

  /** The waiting processes run here. */
  get waitingProcesses(): readonly AgentProcess[] {
    return [...this.running.values()].filter((process) => process.status === "waiting");
  }

  private waiting(process: AgentProcess, minDelayMs = 0): void {
    const deadline = Math.min(
      ...process.awaiting.map((request) => request.deadline ?? Number.POSITIVE_INFINITY),
    );
    const previous = this.deadlines.get(process.id);
    if (previous !== undefined) clearTimeout(previous);
    this.deadlines.delete(process.id);
    if (!Number.isFinite(deadline)) return;
    const timer = setTimeout(
      () => {
        this.deadlines.delete(process.id);
        expireWaits(process)
          .then((after) => {
            // Still waiting with a deadline: a new request, or the process was not suspended yet when the
            // timer fired (a deadline already past when it began to wait): look again, never in a hot loop.
            if (after.status === "waiting" && this.running.get(after.id) === after) this.waiting(after, 10);
          })
          .catch(() => {});
      },
      Math.max(minDelayMs, deadline - Date.now()),
    );
    timer.unref();
    this.deadlines.set(process.id, timer);
  }

  private ended(process: AgentProcess): void {
    const timer = this.deadlines.get(process.id);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.deadlines.delete(process.id);
    }
    this.running.delete(process.id);
    this.remember(process);
  }

  async process(id: string): Promise<AgentProcess | undefined> {
    return this.running.get(id) ?? this.finished.get(id);
  }

  async close(): Promise<void> {
    for (const timer of this.deadlines.values()) clearTimeout(timer);
    this.deadlines.clear();
  }

  private remember(process: AgentProcess): void {
    this.finished.set(process.id, process);
    if (this.finished.size > this.keepFinished) {
      const oldest = this.finished.keys().next().value;
      if (oldest !== undefined) this.finished.delete(oldest);
    }
  }
}

function requireAgent(platform: AgentPlatformApi, name: string): Agent {
  const agent = platform.agent(name);
  if (agent) return agent;
  throw new ConfigurationError(
    `No agent named '${name}' is deployed on platform '${platform.name}'. Deployed agents: [${platform.agents.map((deployed) => deployed.name).join(", ")}]`,
  );
}
