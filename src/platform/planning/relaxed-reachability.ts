import type { PlanningDomain, Relevance } from "./planning-domain.js";

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
): number[] {
  const { users, usersStart, literals, effectsStart } = domain;
  const reached = new Uint8Array(domain.conditionNames.length * 2);
  // Literals and (as `~action`) actions that fire are queued at most once each; every literal reached is one of a relevant condition.
  const queue = new Int32Array(2 * relevance.conditions.length + relevance.actions.length);
  let queueLength = 0;
  for (const condition of relevance.conditions) {
    const lit = condition * 2 + (start[condition] as number);
    reached[lit] = 1;
    queue[queueLength++] = lit;
  }
  // Preconditions not yet reached per usable action (-1: not usable); an action fires when it reaches 0.
  const missing = new Int32Array(domain.actions.length).fill(-1);
  for (const action of relevance.actions) {
    if (excluded[action] === 1) continue;
    missing[action] = (effectsStart[action] as number) - (domain.start[action] as number);
    if (missing[action] === 0) queue[queueLength++] = ~action;
  }
  // Loops written out, no closure made per call: this runs over every relevant action of a big agent.
  while (queueLength > 0) {
    const item = queue[--queueLength] as number;
    if (item < 0) {
      // An action fires: its effects are reached.
      for (let e = effectsStart[~item] as number, end = domain.start[~item + 1] as number; e < end; e++) {
        const lit = literals[e] as number;
        if (reached[lit] === 1) continue;
        reached[lit] = 1;
        queue[queueLength++] = lit;
      }
    } else if (2 * item + 2 < usersStart.length) {
      for (let r = usersStart[2 * item] as number, end = usersStart[2 * item + 1] as number; r < end; r++) {
        const action = users[r] as number;
        const left = (missing[action] as number) - 1;
        if (left < 0) continue;
        missing[action] = left;
        if (left === 0) queue[queueLength++] = ~action;
      }
    }
  }
  const blocked = relevance.goalLiterals.filter((lit) => reached[lit] !== 1);
  if (blocked.length === 0) return blocked;
  // Back from each blocked literal through its usable makers' unreached preconditions, to literals nothing makes.
  const roots: number[] = [];
  const walk = (lit: number) => {
    // 2: walked already (still not reached).
    if (reached[lit] === 2) return;
    reached[lit] = 2;
    let made = false;
    const end = 2 * lit + 2 < usersStart.length ? (usersStart[2 * lit + 2] as number) : 0;
    for (let m = usersStart[2 * lit + 1] as number; m < end; m++) {
      const action = users[m] as number;
      if ((missing[action] as number) < 0) continue;
      made = true;
      for (let i = domain.start[action] as number; i < (effectsStart[action] as number); i++)
        if (reached[literals[i] as number] !== 1) walk(literals[i] as number);
    }
    if (!made) roots.push(lit);
  };
  for (const lit of blocked) walk(lit);
  return roots.length > 0 ? roots : blocked;
}
