import { ConfigurationError } from "../errors/configuration-error.js";
import type { Agent } from "./agent.js";
import type { AgentPlatform } from "./agent-platform.js";
import type { AgentProcess } from "./agent-process.js";
import { type LaunchServices, launchAgent, type RunProcessOptions } from "./process-launcher.js";
import type { ProcessHandle, ProcessRunner } from "./process-runner.js";

/** Options of {@link InProcessRunner}. */
export interface InProcessRunnerOptions {
  /** How many finished processes `platform.process(id)` still finds (oldest forgotten first). @default 100 */
  readonly keepFinished?: number;
}

/** Runs every process in the caller's Node process: the default runner. */
export class InProcessRunner implements ProcessRunner {
  private readonly running = new Map<string, AgentProcess>();
  private readonly finished = new Map<string, AgentProcess>();
  private readonly servicesByPlatform = new WeakMap<AgentPlatform, LaunchServices>();
  private readonly keepFinished: number;

  constructor(options: InProcessRunnerOptions = {}) {
    this.keepFinished = options.keepFinished ?? 100;
  }

  async start(
    agent: Agent | string,
    input: unknown,
    options: RunProcessOptions,
    platform: AgentPlatform,
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
    platform: AgentPlatform,
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
    platform: AgentPlatform,
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
  private services(platform: AgentPlatform): LaunchServices {
    let services = this.servicesByPlatform.get(platform);
    if (!services) {
      services = {
        ai: () => platform.ai(),
        platform,
        onLaunch: (launched) => {
          this.running.set(launched.id, launched);
        },
        onEnd: (finished) => this.ended(finished),
      };
      this.servicesByPlatform.set(platform, services);
    }
    return services;
  }

  /** {@link InProcessRunner.services} that also tell `onLaunch` of the new process. */
  private servicesWith(platform: AgentPlatform, onLaunch: (process: AgentProcess) => void): LaunchServices {
    const services = this.services(platform);
    return {
      ...services,
      onLaunch: (launched) => {
        services.onLaunch?.(launched);
        onLaunch(launched);
      },
    };
  }

  private ended(process: AgentProcess): void {
    this.running.delete(process.id);
    this.remember(process);
  }

  async process(id: string): Promise<AgentProcess | undefined> {
    return this.running.get(id) ?? this.finished.get(id);
  }

  async close(): Promise<void> {}

  private remember(process: AgentProcess): void {
    this.finished.set(process.id, process);
    if (this.finished.size > this.keepFinished) {
      const oldest = this.finished.keys().next().value;
      if (oldest !== undefined) this.finished.delete(oldest);
    }
  }
}

function requireAgent(platform: AgentPlatform, name: string): Agent {
  const agent = platform.agent(name);
  if (agent) return agent;
  throw new ConfigurationError(
    `No agent named '${name}' is deployed on platform '${platform.name}'. Deployed agents: [${platform.agents.map((deployed) => deployed.name).join(", ")}]`,
  );
}
