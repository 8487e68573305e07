import { forEachIn, type PlanningDomain, type Relevance, rowLength } from "./planning-domain.js";

/**
 * Reachability ignoring conflicts between actions (each literal, once true,
 * stays available): a linear-time check that finds goals no plan can reach,
 * and the root conditions that block them — literals no usable action makes
 * hold. Returns an empty list when every goal literal is reachable.
 */
export function explainNoPlan(
  domain: PlanningDomain,
  relevance: Relevance,
  start: Uint8Array,
  excluded: Uint8Array,
): { readonly unreachable: number[] } {
  const reachedMask = new Uint8Array(domain.conditionNames.length * 2);
  const reached = { has: (lit: number) => reachedMask[lit] === 1 };
  const queue: number[] = [];
  const reach = (lit: number) => {
    if (reachedMask[lit] === 1) return;
    reachedMask[lit] = 1;
    queue.push(lit);
  };
  for (const condition of relevance.conditions) reach(condition * 2 + (start[condition] === 1 ? 1 : 0));
  const usable = new Uint8Array(domain.actions.length);
  const missing = new Int32Array(domain.actions.length);
  const fire = (action: number) => {
    forEachIn(domain.effects, action, reach);
  };
  for (const action of relevance.actions) {
    if (excluded[action] === 1) continue;
    usable[action] = 1;
    missing[action] = rowLength(domain.preconditions, action);
    if (missing[action] === 0) fire(action);
  }
  while (queue.length > 0) {
    const lit = queue.pop() as number;
    forEachIn(domain.requiredBy, lit, (action) => {
      if (usable[action] === 0) return;
      missing[action] = (missing[action] as number) - 1;
      if (missing[action] === 0) fire(action);
    });
  }
  const blocked = relevance.goalLiterals.filter((lit) => !reached.has(lit));
  if (blocked.length === 0) return { unreachable: [] };
  const roots = new Set<number>();
  const visited = new Set<number>();
  const walk = (lit: number) => {
    if (visited.has(lit)) return;
    visited.add(lit);
    const producers: number[] = [];
    forEachIn(domain.producers, lit, (action) => {
      if (usable[action] === 1) producers.push(action);
    });
    if (producers.length === 0) {
      roots.add(lit);
      return;
    }
    for (const action of producers) {
      forEachIn(domain.preconditions, action, (pre) => {
        if (!reached.has(pre)) walk(pre);
      });
    }
  };
  for (const lit of blocked) walk(lit);
  return { unreachable: roots.size > 0 ? [...roots] : blocked };
}
