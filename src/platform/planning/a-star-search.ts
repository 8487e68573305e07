import type { GoapAction, PlanningDomain, Relevance } from "./planning-domain.js";
import { SearchWorkspace } from "./search-workspace.js";

/** Input of {@link aStarSearch}. */
export interface SearchInput {
  readonly domain: PlanningDomain;
  readonly relevance: Relevance;
  readonly trueConditions: readonly number[];
  readonly unmet: number;
  readonly excluded: Uint8Array;
  readonly maxExpansions: number;
}

/** The result of {@link aStarSearch}: the actions of the cheapest plan found, if any. */
export interface SearchResult {
  readonly actions: GoapAction[] | undefined;
  readonly cost: number;
  readonly expansions: number;
}

/** The most nodes the workspace keeps room for between searches (about 6 MB); a bigger one is dropped. */
const KEPT_NODES = 1 << 17;

/** The workspace of every search (searches never overlap: they run synchronously). */
let workspace = new SearchWorkspace();

/**
 * A* from the start state to a state where every goal literal holds. g is
 * the accumulated cost; h is admissible (the plan found is the cheapest): the
 * unmet goal literals divided by the most goal literals one relevant action
 * sets (rounded up), times the cheapest relevant action's cost. Ties go to
 * fewer unmet literals, then to the earlier node. States are identified by
 * two Zobrist hashes updated incrementally, and a node stores only the
 * conditions it flipped ({@link SearchWorkspace}).
 */
export function aStarSearch(input: SearchInput): SearchResult {
  const conditions = input.domain.conditionNames.length;
  workspace.reset(conditions, input.domain.actions.length, input.trueConditions);
  const result = search(input, workspace);
  if (workspace.parent.length > KEPT_NODES || workspace.seen.length > KEPT_NODES)
    workspace = new SearchWorkspace();
  return result;
}

/** The heuristic: `unmet` goal literals need at least that many fixes, each costing at least the cheapest action. */
function estimate(unmet: number, relevance: Relevance): number {
  return Math.ceil(unmet / relevance.fixesPerAction) * relevance.cheapest;
}

// The search is module-level functions rather than closures made per call:
// a closure's optimised code dies with it at a full garbage collection, so
// per-call closures would be compiled again for every plan after one.

function search(input: SearchInput, nodes: SearchWorkspace): SearchResult {
  const { domain, relevance } = input;
  const { literals, effectsStart, start, costs } = domain;
  let hash = 0;
  let check = 0;
  for (const condition of input.trueConditions) {
    hash ^= zobrist(2 * condition);
    check ^= zobrist(2 * condition + 1);
  }
  nodes.append(0);
  nodes.add(-1, -1, hash, check, 0, input.unmet, estimate(input.unmet, relevance), 0);
  let expansions = 0;
  while (nodes.openSize > 0) {
    const node = nodes.pop();
    if (nodes.closed[node] === 1) continue;
    if (nodes.unmet[node] === 0)
      return { actions: pathTo(nodes, node, domain), cost: nodes.g[node] as number, expansions };
    if (expansions >= input.maxExpansions) break;
    nodes.closed[node] = 1;
    expansions++;
    nodes.moveTo(node);
    collectUseful(node, input, nodes);
    const useful = nodes.useful[node] as number;
    for (let u = useful + 1, end = u + (nodes.runs[useful] as number); u < end; u++) {
      const action = nodes.runs[u] as number;
      // The conditions the action flips, as the child's run (given back when no child is kept).
      const flips = nodes.runsLength;
      nodes.append(0);
      let childHash = nodes.hash[node] as number;
      let childCheck = nodes.check[node] as number;
      let childUnmet = nodes.unmet[node] as number;
      for (let i = effectsStart[action] as number, iEnd = start[action + 1] as number; i < iEnd; i++) {
        const condition = (literals[i] as number) >> 1;
        const value = (literals[i] as number) & 1;
        if ((nodes.has(condition) ? 1 : 0) === value) continue;
        nodes.append(condition);
        childHash ^= zobrist(2 * condition);
        childCheck ^= zobrist(2 * condition + 1);
        const wanted = relevance.goalValues[condition] as number;
        if (wanted !== -1) childUnmet += wanted === value ? -1 : 1;
      }
      nodes.runs[flips] = nodes.runsLength - flips - 1;
      const g = (nodes.g[node] as number) + (costs[action] as number);
      const existing = nodes.find(childHash, childCheck);
      if (existing >= 0 && (nodes.g[existing] as number) <= g) {
        nodes.runsLength = flips;
        continue;
      }
      if (existing >= 0) nodes.closed[existing] = 1;
      const f = g + estimate(childUnmet, relevance);
      nodes.add(node, action, childHash, childCheck, g, childUnmet, f, flips);
    }
  }
  return { actions: undefined, cost: Number.POSITIVE_INFINITY, expansions };
}

/**
 * Records the actions useful at `node` (the cursor is at its state) as its
 * run, in the order the search tries them. "Useful" = applicable and
 * changing something. Usefulness only changes when a condition in the
 * action's preconditions or effects changes, so a child re-examines its
 * parent's useful actions plus the actions mentioning a condition it
 * flipped, never the whole domain.
 */
function collectUseful(node: number, input: SearchInput, nodes: SearchWorkspace): void {
  const stamp = nodes.nextStamp();
  const run = nodes.runsLength;
  nodes.append(0);
  const parent = nodes.parent[node] as number;
  if (parent < 0) {
    const actions = input.relevance.actions;
    for (let index = 0; index < actions.length; index++)
      consider(actions[index] as number, stamp, input, nodes);
  } else {
    const useful = nodes.useful[parent] as number;
    for (let i = useful + 1, end = i + (nodes.runs[useful] as number); i < end; i++)
      consider(nodes.runs[i] as number, stamp, input, nodes);
    const flips = nodes.flips[node] as number;
    const { users, usersStart } = input.domain;
    for (let i = flips + 1, end = i + (nodes.runs[flips] as number); i < end; i++) {
      const condition = nodes.runs[i] as number;
      for (
        let w = usersStart[4 * condition] as number, wEnd = usersStart[4 * condition + 4] as number;
        w < wEnd;
        w++
      )
        consider(users[w] as number, stamp, input, nodes);
    }
    // Ascending action numbers are the order to try actions in.
    if (nodes.runsLength - run > 2) nodes.runs.subarray(run + 1, nodes.runsLength).sort();
  }
  nodes.runs[run] = nodes.runsLength - run - 1;
  nodes.useful[node] = run;
}

/**
 * Appends `action` to the run being collected when relevant, allowed, not yet
 * looked at for this node, and useful: applicable at the cursor's state and
 * changing something.
 */
function consider(action: number, stamp: number, input: SearchInput, nodes: SearchWorkspace): void {
  if (nodes.seen[action] === stamp || input.relevance.isAction[action] === 0 || input.excluded[action] === 1)
    return;
  nodes.seen[action] = stamp;
  const { literals, start, effectsStart } = input.domain;
  // The first literal that does not hold decides: a precondition (not applicable) or an effect (a change).
  for (let i = start[action] as number, end = start[action + 1] as number; i < end; i++) {
    const lit = literals[i] as number;
    if (nodes.has(lit >> 1) !== ((lit & 1) === 1)) {
      if (i >= (effectsStart[action] as number)) nodes.append(action);
      return;
    }
  }
}

/** The actions from the root to `node`. */
function pathTo(nodes: SearchWorkspace, node: number, domain: PlanningDomain): GoapAction[] {
  const actions: GoapAction[] = [];
  for (let at = node; (nodes.parent[at] as number) >= 0; at = nodes.parent[at] as number)
    actions.push(domain.actions[nodes.action[at] as number] as GoapAction);
  return actions.reverse();
}

/**
 * Zobrist key `index`: two random 30-bit keys per condition `c`, at `2c` and
 * `2c + 1`, the same in every run (the murmur3 finalizer of `index + 1`).
 */
function zobrist(index: number): number {
  let x = index + 1;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) & 0x3fffffff;
}
