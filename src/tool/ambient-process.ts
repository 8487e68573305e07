import { AsyncLocalStorage } from "node:async_hooks";
import type { ApprovalAuthority } from "./approval-authority.js";
import type { Logger } from "./logger.js";

/**
 * What the tool layer needs of the agent process a call runs in. The platform's
 * `AgentProcess` implements it; `AgentProcess.current()` reads the same store.
 */
export interface AmbientProcess {
  readonly id: string;
  readonly blackboard: { add(value: unknown): unknown };
  /** The logger of the process's platform, when it has one. */
  readonly logger?: Logger | undefined;
  /** Who answers approvals for calls made in the process (its waits). @default undefined (nobody) */
  readonly approvals?: ApprovalAuthority | undefined;
}

const storage = new AsyncLocalStorage<AmbientProcess>();

/** The ambient (AsyncLocalStorage) process, shared by every layer. */
export const AmbientProcess = {
  /** The process the current async call chain runs in, or `undefined`. */
  current(): AmbientProcess | undefined {
    return storage.getStore();
  },
  /** Runs `fn` with `process` as the current process. */
  run<T>(process: AmbientProcess, fn: () => T): T {
    return storage.run(process, fn);
  },
};
