import type { NodeStore } from "./node-store.js";
import type { PlanningDomain, Relevance } from "./planning-domain.js";
import { SearchWorkspace } from "./search-workspace.js";
import type { StateCursor } from "./state-cursor.js";

/** Input of {@link aStarSearch}. */
export interface SearchInput {
  readonly domain: PlanningDomain;
  readonly relevance: Relevance;
  readonly trueConditions: readonly number[];
  readonly unmet: number;
  readonly excluded: Uint8Array;
  readonly maxExpansions: number;
  /** Zobrist keys: two independent 30-bit keys per condition `c`, at `2c` and `2c + 1`. */
  readonly zobrist: Int32Array;
}

/** The result of {@link aStarSearch}: the actions of the cheapest plan found, if any. */
export interface SearchResult {
  readonly actions: readonly number[] | undefined;
  readonly cost: number;
  readonly expansions: number;
}

/**
 * A* from the start state to a state where every goal literal holds. g is
 * the accumulated cost; h is admissible (the plan found is the cheapest): the
 * unmet goal literals divided by the most goal literals one relevant action
 * sets (rounded up), times the cheapest relevant action's cost. Ties go to
 * fewer unmet literals, then to the earlier node. States are identified by two independent 30-bit Zobrist
 * hashes updated incrementally (a false match needs a 60-bit collision).
 * Nodes live column-wise in typed arrays ({@link NodeStore}) of a reused
 * {@link SearchWorkspace}.
 */
export function aStarSearch(input: SearchInput): SearchResult {
  const { domain, relevance } = input;
  const goalValue = new Int8Array(domain.conditionNames.length).fill(-1);
  for (const lit of relevance.goalLiterals) goalValue[lit >> 1] = lit & 1;
  const { offsets: effOffsets, items: effItems } = domain.effects;
  // Admissible: one action fixes at most `fixesPerAction` goal literals and costs at least `minCost`.
  let minCost = Number.POSITIVE_INFINITY;
  let fixesPerAction = 1;
  for (let index = 0; index < relevance.actions.length; index++) {
    const action = relevance.actions[index] as number;
    minCost = Math.min(minCost, domain.costs[action] as number);
    let fixes = 0;
    for (let i = effOffsets[action] as number, end = effOffsets[action + 1] as number; i < end; i++) {
      const lit = effItems[i] as number;
      if (goalValue[lit >> 1] === (lit & 1)) fixes++;
    }
    fixesPerAction = Math.max(fixesPerAction, fixes);
  }
  const weight = Number.isFinite(minCost) ? minCost : 0;
  // The search's nodes, open list, states and scratch arrays live in a workspace reused from search to search.
  const capacity = Math.min(1 << 16, 2 * relevance.actions.length + 16);
  const workspace = SearchWorkspace.acquire(capacity, domain.conditionNames.length, input.trueConditions);
  workspace.prepareScratch(domain.actions.length, relevance.actions.length, domain.mostEffects);
  try {
    return search(input, workspace, goalValue, fixesPerAction, weight);
  } finally {
    workspace.release();
  }
}

/** The heuristic: `unmet` goal literals need at least that many fixes at `weight` each. */
function estimate(unmet: number, fixesPerAction: number, weight: number): number {
  return Math.ceil(unmet / fixesPerAction) * weight;
}

// The search is module-level functions rather than closures made per call:
// a closure's optimised code dies with it at a full garbage collection, so
// per-call closures would be compiled again for every plan after one.

function search(
  input: SearchInput,
  workspace: SearchWorkspace,
  goalValue: Int8Array,
  fixesPerAction: number,
  weight: number,
): SearchResult {
  const { domain, zobrist } = input;
  const { nodes, state, open, states: seenStates, changed } = workspace;
  const { offsets: effOffsets, items: effItems } = domain.effects;

  let hash = 0;
  let check = 0;
  for (const condition of input.trueConditions) {
    hash ^= zobrist[2 * condition] as number;
    check ^= zobrist[2 * condition + 1] as number;
  }
  const root = nodes.add(-1, -1, hash, check, 0, estimate(input.unmet, fixesPerAction, weight), input.unmet);
  seenStates.insert(root);
  open.push(root);
  let expansions = 0;
  while (open.size > 0) {
    const node = open.pop();
    if (nodes.closed[node] === 1) continue;
    if (nodes.unmet[node] === 0)
      return { actions: pathTo(nodes, node), cost: nodes.g[node] as number, expansions };
    if (expansions >= input.maxExpansions) break;
    nodes.closed[node] = 1;
    expansions++;
    state.moveTo(node);
    collectUseful(node, input, workspace);
    const usefulEnd = nodes.usefulEnd[node] as number;
    for (let u = nodes.usefulStart[node] as number; u < usefulEnd; u++) {
      const action = nodes.useful.items[u] as number;
      // `changed`: the conditions the action flips (at most its effects).
      let changedLength = 0;
      let childHash = nodes.hash[node] as number;
      let childCheck = nodes.check[node] as number;
      let childUnmet = nodes.unmet[node] as number;
      for (let i = effOffsets[action] as number, end = effOffsets[action + 1] as number; i < end; i++) {
        const lit = effItems[i] as number;
        const condition = lit >> 1;
        const value = lit & 1;
        if ((state.has(condition) ? 1 : 0) === value) continue;
        changed[changedLength++] = condition;
        childHash ^= zobrist[2 * condition] as number;
        childCheck ^= zobrist[2 * condition + 1] as number;
        const wanted = goalValue[condition] as number;
        if (wanted !== -1) childUnmet += wanted === value ? -1 : 1;
      }
      const g = (nodes.g[node] as number) + (domain.costs[action] as number);
      const existing = seenStates.find(childHash, childCheck);
      if (existing >= 0 && (nodes.g[existing] as number) <= g) continue;
      if (existing >= 0) nodes.closed[existing] = 1;
      const f = g + estimate(childUnmet, fixesPerAction, weight);
      const child = nodes.add(node, action, childHash, childCheck, g, f, childUnmet);
      nodes.changedStart[child] = nodes.changed.length;
      for (let index = 0; index < changedLength; index++) nodes.changed.push(changed[index] as number);
      nodes.changedEnd[child] = nodes.changed.length;
      seenStates.insert(child);
      open.push(child);
    }
  }
  return { actions: undefined, cost: Number.POSITIVE_INFINITY, expansions };
}

/**
 * Records the actions useful at `node` (the cursor is at its state), in rank
 * order. "Useful" = applicable and changing something. Usefulness only
 * changes when a condition in the action's preconditions or effects changes,
 * so a child re-examines its parent's useful actions plus the watchers of
 * the conditions that changed, never the whole domain.
 */
function collectUseful(node: number, input: SearchInput, workspace: SearchWorkspace): void {
  const { nodes, found } = workspace;
  const { relevance, domain } = input;
  const stamp = workspace.nextStamp();
  let count = 0;
  const parent = nodes.parent[node] as number;
  if (parent < 0) {
    const actions = relevance.actions;
    for (let index = 0; index < actions.length; index++)
      count = consider(actions[index] as number, stamp, count, input, workspace);
  } else {
    const useful = nodes.useful;
    for (let i = nodes.usefulStart[parent] as number, end = nodes.usefulEnd[parent] as number; i < end; i++) {
      count = consider(useful.items[i] as number, stamp, count, input, workspace);
    }
    const changed = nodes.changed;
    const { watchers } = domain;
    for (let i = nodes.changedStart[node] as number, end = nodes.changedEnd[node] as number; i < end; i++) {
      const condition = changed.items[i] as number;
      if (condition + 1 >= watchers.offsets.length) continue;
      for (
        let w = watchers.offsets[condition] as number, wEnd = watchers.offsets[condition + 1] as number;
        w < wEnd;
        w++
      ) {
        count = consider(watchers.items[w] as number, stamp, count, input, workspace);
      }
    }
    sortByRank(found, count, domain.rank);
  }
  nodes.usefulStart[node] = nodes.useful.length;
  for (let index = 0; index < count; index++) nodes.useful.push(found[index] as number);
  nodes.usefulEnd[node] = nodes.useful.length;
}

/** Adds `action` to `workspace.found[0 … count)` when relevant, not yet seen at this node, and useful; returns the new count. */
function consider(
  action: number,
  stamp: number,
  count: number,
  input: SearchInput,
  workspace: SearchWorkspace,
): number {
  const { seen } = workspace;
  if (seen[action] === stamp || input.relevance.isAction[action] === 0) return count;
  seen[action] = stamp;
  if (!isUseful(action, input, workspace.state)) return count;
  workspace.found[count] = action;
  return count + 1;
}

/** Whether `action` is allowed, applicable in the cursor's state and changes something. */
function isUseful(action: number, input: SearchInput, state: StateCursor): boolean {
  if (input.excluded[action] === 1) return false;
  const { preconditions, effects } = input.domain;
  for (
    let i = preconditions.offsets[action] as number, end = preconditions.offsets[action + 1] as number;
    i < end;
    i++
  ) {
    const lit = preconditions.items[i] as number;
    if (state.has(lit >> 1) !== ((lit & 1) === 1)) return false;
  }
  for (let i = effects.offsets[action] as number, end = effects.offsets[action + 1] as number; i < end; i++) {
    const lit = effects.items[i] as number;
    if (state.has(lit >> 1) !== ((lit & 1) === 1)) return true;
  }
  return false;
}

/** Sorts `items[0 … length)` by `rank`: insertion sort, since a node has few useful actions. */
function sortByRank(items: Int32Array, length: number, rank: Int32Array): void {
  if (length > 32) {
    items.subarray(0, length).sort((a, b) => (rank[a] as number) - (rank[b] as number));
    return;
  }
  for (let index = 1; index < length; index++) {
    const item = items[index] as number;
    const itemRank = rank[item] as number;
    let at = index - 1;
    while (at >= 0 && (rank[items[at] as number] as number) > itemRank) {
      items[at + 1] = items[at] as number;
      at--;
    }
    items[at + 1] = item;
  }
}

function pathTo(nodes: NodeStore, node: number): number[] {
  const actions: number[] = [];
  for (let at = node; (nodes.parent[at] as number) >= 0; at = nodes.parent[at] as number) {
    actions.push(nodes.action[at] as number);
  }
  return actions.reverse();
}
