const agentBrand = Symbol.for("embabel-ts.agent");

/** Marks an agent object so `Agent.isAgent` recognises it across package copies. */
export function brandAgent<T extends object>(agent: T): T {
  Object.defineProperty(agent, agentBrand, { value: true });
  return agent;
}

/** Whether `value` was made by `defineAgent` or from an `@agent` class. */
export function isBrandedAgent(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[agentBrand] === true
  );
}
