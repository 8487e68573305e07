import { IndexHeap, NodeStore } from "./node-store.js";
import { forEachIn, type PlanningDomain, type Relevance } from "./planning-domain.js";
import { StateCursor } from "./state-cursor.js";

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
 * Nodes live column-wise in typed arrays ({@link NodeStore}).
 */
export function aStarSearch(input: SearchInput): SearchResult {
  const { domain, relevance, excluded, zobrist } = input;
  const goalValue = new Int8Array(domain.conditionNames.length).fill(-1);
  for (const lit of relevance.goalLiterals) goalValue[lit >> 1] = lit & 1;
  const { offsets: preOffsets, items: preItems } = domain.preconditions;
  const { offsets: effOffsets, items: effItems } = domain.effects;
  // Admissible: one action fixes at most `fixesPerAction` goal literals and costs at least `minCost`.
  let minCost = Number.POSITIVE_INFINITY;
  let fixesPerAction = 1;
  for (const action of relevance.actions) {
    minCost = Math.min(minCost, domain.costs[action] as number);
    let fixes = 0;
    for (let i = effOffsets[action] as number, end = effOffsets[action + 1] as number; i < end; i++) {
      const lit = effItems[i] as number;
      if (goalValue[lit >> 1] === (lit & 1)) fixes++;
    }
    fixesPerAction = Math.max(fixesPerAction, fixes);
  }
  const weight = Number.isFinite(minCost) ? minCost : 0;
  const h = (unmet: number): number => Math.ceil(unmet / fixesPerAction) * weight;
  const capacity = Math.min(1 << 16, 2 * relevance.actions.length + 16);
  const nodes = new NodeStore(capacity);

  let hash = 0;
  let check = 0;
  for (const condition of input.trueConditions) {
    hash ^= zobrist[2 * condition] as number;
    check ^= zobrist[2 * condition + 1] as number;
  }
  const root = nodes.add(-1, -1, hash, check, 0, h(input.unmet), input.unmet);
  const state = new StateCursor(nodes, domain.conditionNames.length, input.trueConditions);

  // "Useful" = applicable and changing something. Usefulness only changes
  // when a condition in the action's preconditions or effects changes, so a
  // child re-examines its parent's useful actions plus the watchers of the
  // conditions that changed, never the whole domain.
  const isUseful = (action: number): boolean => {
    if (excluded[action] === 1) return false;
    for (let i = preOffsets[action] as number, end = preOffsets[action + 1] as number; i < end; i++) {
      const lit = preItems[i] as number;
      if (state.has(lit >> 1) !== ((lit & 1) === 1)) return false;
    }
    for (let i = effOffsets[action] as number, end = effOffsets[action + 1] as number; i < end; i++) {
      const lit = effItems[i] as number;
      if (state.has(lit >> 1) !== ((lit & 1) === 1)) return true;
    }
    return false;
  };
  const relevant = new Uint8Array(domain.actions.length);
  for (const action of relevance.actions) relevant[action] = 1;
  const seen = new Int32Array(domain.actions.length);
  let stamp = 0;
  const found: number[] = [];
  const consider = (action: number) => {
    if (seen[action] === stamp || relevant[action] === 0) return;
    seen[action] = stamp;
    if (isUseful(action)) found.push(action);
  };
  const expandUseful = (node: number): void => {
    found.length = 0;
    stamp++;
    const parent = nodes.parent[node] as number;
    if (parent < 0) {
      for (const action of relevance.actions) consider(action);
    } else {
      const useful = nodes.useful;
      for (
        let i = nodes.usefulStart[parent] as number, end = nodes.usefulEnd[parent] as number;
        i < end;
        i++
      ) {
        consider(useful.items[i] as number);
      }
      const changed = nodes.changed;
      for (let i = nodes.changedStart[node] as number, end = nodes.changedEnd[node] as number; i < end; i++) {
        forEachIn(domain.watchers, changed.items[i] as number, consider);
      }
      if (found.length > 1) found.sort((a, b) => (domain.rank[a] as number) - (domain.rank[b] as number));
    }
    nodes.usefulStart[node] = nodes.useful.length;
    for (const action of found) nodes.useful.push(action);
    nodes.usefulEnd[node] = nodes.useful.length;
  };

  const open = new IndexHeap((a, b) => {
    const fa = nodes.f[a] as number;
    const fb = nodes.f[b] as number;
    if (fa !== fb) return fa < fb;
    const ua = nodes.unmet[a] as number;
    const ub = nodes.unmet[b] as number;
    return ua !== ub ? ua < ub : a < b;
  }, capacity);
  const seenStates = new StateTable(nodes, capacity);
  seenStates.insert(root);
  open.push(root);
  let expansions = 0;
  const changed: number[] = [];
  while (open.size > 0) {
    const node = open.pop();
    if (nodes.closed[node] === 1) continue;
    if (nodes.unmet[node] === 0)
      return { actions: pathTo(nodes, node), cost: nodes.g[node] as number, expansions };
    if (expansions >= input.maxExpansions) break;
    nodes.closed[node] = 1;
    expansions++;
    state.moveTo(node);
    expandUseful(node);
    const usefulEnd = nodes.usefulEnd[node] as number;
    for (let u = nodes.usefulStart[node] as number; u < usefulEnd; u++) {
      const action = nodes.useful.items[u] as number;
      changed.length = 0;
      let childHash = nodes.hash[node] as number;
      let childCheck = nodes.check[node] as number;
      let childUnmet = nodes.unmet[node] as number;
      for (let i = effOffsets[action] as number, end = effOffsets[action + 1] as number; i < end; i++) {
        const lit = effItems[i] as number;
        const condition = lit >> 1;
        const value = lit & 1;
        if ((state.has(condition) ? 1 : 0) === value) continue;
        changed.push(condition);
        childHash ^= zobrist[2 * condition] as number;
        childCheck ^= zobrist[2 * condition + 1] as number;
        const wanted = goalValue[condition] as number;
        if (wanted !== -1) childUnmet += wanted === value ? -1 : 1;
      }
      const g = (nodes.g[node] as number) + (domain.costs[action] as number);
      const existing = seenStates.find(childHash, childCheck);
      if (existing >= 0 && (nodes.g[existing] as number) <= g) continue;
      if (existing >= 0) nodes.closed[existing] = 1;
      const child = nodes.add(node, action, childHash, childCheck, g, g + h(childUnmet), childUnmet);
      nodes.changedStart[child] = nodes.changed.length;
      for (const condition of changed) nodes.changed.push(condition);
      nodes.changedEnd[child] = nodes.changed.length;
      seenStates.insert(child);
      open.push(child);
    }
  }
  return { actions: undefined, cost: Number.POSITIVE_INFINITY, expansions };
}

function pathTo(nodes: NodeStore, node: number): number[] {
  const actions: number[] = [];
  for (let at = node; (nodes.parent[at] as number) >= 0; at = nodes.parent[at] as number) {
    actions.push(nodes.action[at] as number);
  }
  return actions.reverse();
}

/**
 * Open-addressed buckets of node indexes keyed by a state's primary hash,
 * chained through `nodes.nextSameHash`; the newest node of a state comes
 * first (it has the lowest cost found so far).
 */
class StateTable {
  private heads: Int32Array;
  private count = 0;

  /** `capacity`: the nodes expected; the table starts at the power of two at least twice that. */
  constructor(
    private readonly nodes: NodeStore,
    capacity: number,
  ) {
    this.heads = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(16, 2 * capacity)))).fill(-1);
  }

  find(hash: number, check: number): number {
    const { nodes } = this;
    let node = this.heads[hash & (this.heads.length - 1)] as number;
    while (node >= 0 && (nodes.hash[node] !== hash || nodes.check[node] !== check)) {
      node = nodes.nextSameHash[node] as number;
    }
    return node;
  }

  /** Adds `node`, which must be the node store's newest node. */
  insert(node: number): void {
    if (++this.count > this.heads.length >> 1) this.rehash(this.heads.length * 2);
    else this.link(node);
  }

  private link(node: number): void {
    const bucket = (this.nodes.hash[node] as number) & (this.heads.length - 1);
    this.nodes.nextSameHash[node] = this.heads[bucket] as number;
    this.heads[bucket] = node;
  }

  /** Relinks every node (all of them are in the table), oldest first, so the newest stays first. */
  private rehash(capacity: number): void {
    this.heads = new Int32Array(capacity).fill(-1);
    for (let node = 0; node < this.nodes.size; node++) this.link(node);
  }
}
