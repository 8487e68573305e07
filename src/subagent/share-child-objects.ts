import type { Blackboard } from "../platform/blackboard.js";

/**
 * Makes what a completed subagent added to its (spawned) blackboard
 * available on the parent's, in the order it was added, with the names it
 * bound. The input the subagent was given (bound as `it` and by type) is not
 * copied: the parent's LLM made it, the subagent did not. Returns the objects
 * copied.
 */
export function shareChildObjects(child: Blackboard, parent: Blackboard, input: unknown): unknown[] {
  const names = new Map<unknown, string[]>();
  for (const [name, value] of child.ownBindings) {
    if (name === "it" || value === input || value === undefined) continue;
    names.set(value, [...(names.get(value) ?? []), name]);
  }
  const shared: unknown[] = [];
  for (const value of child.ownObjects) {
    if (value === input) continue;
    const bound = names.get(value);
    if (bound) for (const name of bound) parent.bind(name, value);
    else parent.add(value);
    shared.push(value);
  }
  return shared;
}
