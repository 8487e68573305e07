import {
  forEachIn,
  type IntLists,
  type PlanningDomain,
  type Relevance,
  rowLength,
} from "./planning-domain.js";

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
  // Each literal is queued at most once, and every literal reached is one of a relevant condition.
  const queue = new Int32Array(2 * relevance.conditions.length);
  let queueLength = 0;
  const { conditions } = relevance;
  for (let index = 0; index < conditions.length; index++) {
    const condition = conditions[index] as number;
    const lit = condition * 2 + (start[condition] === 1 ? 1 : 0);
    reachedMask[lit] = 1;
    queue[queueLength++] = lit;
  }
  const usable = new Uint8Array(domain.actions.length);
  const missing = new Int32Array(domain.actions.length);
  const { effects, requiredBy } = domain;
  // Loops written out and no closure made per call (its optimised code would die with
  // it at a full garbage collection): this runs over every relevant action of a big agent.
  const { actions } = relevance;
  for (let index = 0; index < actions.length; index++) {
    const action = actions[index] as number;
    if (excluded[action] === 1) continue;
    usable[action] = 1;
    missing[action] = rowLength(domain.preconditions, action);
    if (missing[action] === 0) queueLength = fire(effects, action, reachedMask, queue, queueLength);
  }
  while (queueLength > 0) {
    const lit = queue[--queueLength] as number;
    if (lit + 1 >= requiredBy.offsets.length) continue;
    for (
      let r = requiredBy.offsets[lit] as number, end = requiredBy.offsets[lit + 1] as number;
      r < end;
      r++
    ) {
      const action = requiredBy.items[r] as number;
      if (usable[action] === 0) continue;
      const left = (missing[action] as number) - 1;
      missing[action] = left;
      if (left === 0) queueLength = fire(effects, action, reachedMask, queue, queueLength);
    }
  }
  const blocked = relevance.goalLiterals.filter((lit) => reachedMask[lit] !== 1);
  const reached = { has: (lit: number) => reachedMask[lit] === 1 };
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

/** Marks the effects of `action` reached, queueing the new ones; returns the queue's new length. */
function fire(
  effects: IntLists,
  action: number,
  reachedMask: Uint8Array,
  queue: Int32Array,
  queueLength: number,
): number {
  let length = queueLength;
  for (let e = effects.offsets[action] as number, end = effects.offsets[action + 1] as number; e < end; e++) {
    const lit = effects.items[e] as number;
    if (reachedMask[lit] === 1) continue;
    reachedMask[lit] = 1;
    queue[length++] = lit;
  }
  return length;
}
