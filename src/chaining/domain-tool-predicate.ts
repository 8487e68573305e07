import type { AmbientProcess } from "../tool/ambient-process.js";

/**
 * Decides whether a returned instance contributes its tools: it receives the
 * artifact and the agent process the call ran in (`undefined` outside one;
 * inside a platform process it is the `AgentProcess`).
 */
export type DomainToolPredicate<T> = (artifact: T, process: AmbientProcess | undefined) => boolean;

/** Predicates for tool chaining. */
export const DomainToolPredicate = {
  /** Accepts every instance. */
  always(): DomainToolPredicate<unknown> {
    return ALWAYS;
  },
};

const ALWAYS: DomainToolPredicate<unknown> = () => true;
