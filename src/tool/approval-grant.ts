import { AsyncLocalStorage } from "node:async_hooks";

/** One approved call: the approval it answers, the exact JSON input, and whether it was used. */
interface Grant {
  readonly approval: object;
  readonly input: string;
  used: boolean;
}

const storage = new AsyncLocalStorage<Grant | undefined>();

/**
 * The gate's permission for one call of an approval-gated tool, kept in the
 * async call chain: the tool takes it (once, for exactly its input) before it
 * runs, and its own nested calls do not inherit it. Defence in depth behind
 * the gate: a route that calls such a tool around the gate finds no grant.
 */
export const ApprovalGrant = {
  /** Runs `fn` with a grant for one call with `input` of the tool whose approval is `approval`. */
  run<T>(approval: object, input: string, fn: () => T): T {
    return storage.run({ approval, input, used: false }, fn);
  },
  /** True (and the grant used up) when the current chain holds an unused grant for `approval` and exactly `input`. */
  take(approval: object, input: string): boolean {
    const grant = storage.getStore();
    if (grant === undefined || grant.used || grant.approval !== approval || grant.input !== input)
      return false;
    grant.used = true;
    return true;
  },
  /** Runs `fn` with no grant (the tool's own nested calls). */
  without<T>(fn: () => T): T {
    return storage.run(undefined, fn);
  },
};
