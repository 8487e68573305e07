import { ConfigurationError } from "../errors/configuration-error.js";
import { decoratorMetadataOf } from "../tool/decorator-metadata.js";
import type { Agent } from "./agent-interface.js";

/** What `@agent` records on its class: the agent's name and description. */
export interface AgentClassOptions {
  readonly name: string;
  readonly description: string;
}

/** Builds the agent of an instance of an `@agent` class from its recorded options; `@agent`'s module provides it. */
export type AgentClassReader = (instance: object, options: AgentClassOptions) => Agent;

const AGENT_READER = Symbol.for("embabel-ts.agent-reader");

/** The key under which `@agent` records its {@link AgentClassOptions} (shared by every copy of the package). */
export const AGENT_OPTIONS: unique symbol = Symbol.for("embabel-ts.agent-options");

let registeredReader: AgentClassReader | undefined;

/**
 * Records `@agent`'s options on a class's decorator metadata, with the
 * reader that builds its agent. `@agent` calls it as it decorates, so the
 * platform never names the decorators' reader (a bundle that never decorates
 * leaves it out). The reader is kept for every later class and left on this
 * class's metadata, where another copy of the package finds it.
 */
export function recordAgentClass(
  metadata: Record<PropertyKey, unknown>,
  options: AgentClassOptions,
  reader: AgentClassReader,
): void {
  registeredReader = reader;
  metadata[AGENT_OPTIONS] = options;
  metadata[AGENT_READER] = reader;
}

/**
 * Makes `reader` the reader of every `@agent` class whose own copy of the
 * package left none on its metadata (0.1.0 left none), unless `@agent`
 * recorded one already. The CLI installs it before loading a user's module,
 * which may decorate with another copy of the package.
 */
export function useAgentClassReader(reader: AgentClassReader): void {
  registeredReader ??= reader;
}

/** Whether `value` is a class decorated with `@agent` (or a subclass of one). */
export function isAgentClass(value: unknown): boolean {
  if (typeof value !== "function") return false;
  const metadata = decoratorMetadataOf(value);
  return metadata !== undefined && metadata[AGENT_OPTIONS] !== undefined;
}

/** The agent of an `@agent` class, on a new instance. */
export function agentFromClass(type: new () => object): Agent {
  if (!isAgentClass(type)) {
    throw new ConfigurationError(`Class ${type.name || "(anonymous)"} must be annotated with @agent`);
  }
  return agentFromInstance(new type());
}

/** The agent of an instance of an `@agent` class, with its methods bound to the instance. */
export function agentFromInstance(instance: object): Agent {
  const metadata = decoratorMetadataOf(instance);
  const options = metadata?.[AGENT_OPTIONS] as AgentClassOptions | undefined;
  const reader = registeredReader ?? metadata?.[AGENT_READER];
  if (!options || typeof reader !== "function") {
    throw new ConfigurationError(
      `Instance of ${instance.constructor?.name ?? "Object"} must be annotated with @agent`,
    );
  }
  return (reader as AgentClassReader)(instance, options);
}
