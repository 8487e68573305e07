import { BinaryHeap } from "./binary-heap.js";
import { forEachIn, type PlanningDomain, type Relevance } from "./planning-domain.js";
import { StateCursor } from "./state-cursor.js";

/** One node of the search tree. */
export class SearchNode {
  /** Actions useful here (applicable and changing something); set when expanded. */
  useful: number[] | undefined = undefined;
  closed = false;
  /** The next node whose state has the same primary hash. */
  nextSameHash: SearchNode | undefined = undefined;
  constructor(
    readonly parent: SearchNode | undefined,
    readonly depth: number,
    /** The conditions whose value differs from the parent's state. */
    readonly changed: readonly number[],
    readonly action: number,
    readonly hash: number,
    readonly check: number,
    readonly g: number,
    readonly f: number,
    readonly unmet: number,
    readonly sequence: number,
  ) {}
}

/** Input of {@link aStarSearch}. */
export interface SearchInput {
  readonly domain: PlanningDomain;
  readonly relevance: Relevance;
  readonly trueConditions: readonly number[];
  readonly unmet: number;
  readonly excluded: Uint8Array;
  readonly maxExpansions: number;
  /** Zobrist keys: two independent 30-bit keys per condition. */
  readonly keys: (condition: number) => readonly [number, number];
}

/**
 * A* from the start state to a state where every goal literal holds. g is
 * the accumulated cost, h the number of unmet goal literals times the
 * cheapest relevant action's cost; ties go to fewer unmet literals, then to
 * the earlier node. States are identified by two independent 30-bit Zobrist
 * hashes updated incrementally (a false match needs a 60-bit collision).
 */
export function aStarSearch(input: SearchInput): { node: SearchNode | undefined; expansions: number } {
  const { domain, relevance, excluded, keys } = input;
  const goalValue = new Int8Array(domain.conditionNames.length).fill(-1);
  for (const lit of relevance.goalLiterals) goalValue[lit >> 1] = lit & 1;
  let minCost = Number.POSITIVE_INFINITY;
  for (const action of relevance.actions) minCost = Math.min(minCost, domain.costs[action] as number);
  const weight = Number.isFinite(minCost) ? minCost : 0;
  const { offsets: preOffsets, items: preItems } = domain.preconditions;
  const { offsets: effOffsets, items: effItems } = domain.effects;

  let hash = 0;
  let check = 0;
  for (const condition of input.trueConditions) {
    const [first, second] = keys(condition);
    hash ^= first;
    check ^= second;
  }
  let sequence = 0;
  const root = new SearchNode(
    undefined,
    0,
    [],
    -1,
    hash,
    check,
    0,
    input.unmet * weight,
    input.unmet,
    sequence++,
  );
  const state = new StateCursor(domain.conditionNames.length, input.trueConditions, root);

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
  let result: number[] = [];
  const consider = (action: number) => {
    if (seen[action] === stamp || relevant[action] === 0) return;
    seen[action] = stamp;
    if (isUseful(action)) result.push(action);
  };
  const usefulAt = (node: SearchNode): number[] => {
    result = [];
    stamp++;
    if (node.parent === undefined) {
      for (const action of relevance.actions) consider(action);
      return result;
    }
    for (const action of node.parent.useful as number[]) consider(action);
    for (const condition of node.changed) forEachIn(domain.watchers, condition, consider);
    if (result.length > 1) result.sort((a, b) => (domain.rank[a] as number) - (domain.rank[b] as number));
    return result;
  };

  const open = new BinaryHeap<SearchNode>(
    (a, b) =>
      a.f < b.f || (a.f === b.f && (a.unmet < b.unmet || (a.unmet === b.unmet && a.sequence < b.sequence))),
  );
  const byHash = new Map<number, SearchNode>([[root.hash, root]]);
  open.push(root);
  let expansions = 0;
  const changed: number[] = [];
  while (open.size > 0) {
    const node = open.pop() as SearchNode;
    if (node.closed) continue;
    if (node.unmet === 0) return { node, expansions };
    if (expansions >= input.maxExpansions) break;
    node.closed = true;
    expansions++;
    state.moveTo(node);
    node.useful = usefulAt(node);
    for (const action of node.useful) {
      changed.length = 0;
      let childHash = node.hash;
      let childCheck = node.check;
      let childUnmet = node.unmet;
      for (let i = effOffsets[action] as number, end = effOffsets[action + 1] as number; i < end; i++) {
        const lit = effItems[i] as number;
        const condition = lit >> 1;
        const value = lit & 1;
        if ((state.has(condition) ? 1 : 0) === value) continue;
        changed.push(condition);
        const [first, second] = keys(condition);
        childHash ^= first;
        childCheck ^= second;
        const wanted = goalValue[condition] as number;
        if (wanted !== -1) childUnmet += wanted === value ? -1 : 1;
      }
      const g = node.g + (domain.costs[action] as number);
      const head = byHash.get(childHash);
      let existing = head;
      while (existing && existing.check !== childCheck) existing = existing.nextSameHash;
      if (existing && existing.g <= g) continue;
      if (existing) existing.closed = true;
      const child = new SearchNode(
        node,
        node.depth + 1,
        changed.slice(),
        action,
        childHash,
        childCheck,
        g,
        g + childUnmet * weight,
        childUnmet,
        sequence++,
      );
      child.nextSameHash = head;
      byHash.set(childHash, child);
      open.push(child);
    }
  }
  return { node: undefined, expansions };
}
