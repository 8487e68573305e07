import { ConfigurationError } from "../../errors/configuration-error.js";
import { NameTable } from "./name-table.js";

/** An action as the planner sees it: conditions it needs, conditions it sets, and its cost. */
export interface GoapAction {
  /** Unique within one planner. */
  readonly name: string;
  /** Condition → value that must hold for the action to run. */
  readonly preconditions: Readonly<Record<string, boolean>>;
  /** Condition → value the action makes hold. */
  readonly effects: Readonly<Record<string, boolean>>;
  /** Lower is preferred. @default 1 */
  readonly cost?: number;
}

/** A goal as the planner sees it: conditions that must all hold. */
export interface GoapGoal {
  /** Names the goal in plans and explanations. */
  readonly name: string;
  /** Condition → value that must hold when the goal is reached. */
  readonly preconditions: Readonly<Record<string, boolean>>;
}

/** The part of a domain that matters for one goal (backward relevance from the goal). */
export interface Relevance {
  /** Goal literals (`2 * condition + value`). */
  readonly goalLiterals: readonly number[];
  /** Actions that can contribute, most preconditions first. */
  readonly actions: Int32Array;
  /** Conditions those actions and the goal mention. */
  readonly conditions: Int32Array;
  /** Condition → 1 when it is one of `conditions` (conditions added later are past its end). */
  readonly isCondition: Uint8Array;
  /** Action → 1 when it is one of `actions`. */
  readonly isAction: Uint8Array;
}

/**
 * Lists of integers stored flat (compressed sparse rows): the items of row
 * `r` are `items[offsets[r]] … items[offsets[r + 1] - 1]`. One allocation
 * instead of one small array per row.
 */
export interface IntLists {
  readonly offsets: Int32Array;
  readonly items: Int32Array;
}

/** A literal: condition index and value packed as `2 * condition + (value ? 1 : 0)`. */
export const literal = (condition: number, value: boolean): number => condition * 2 + (value ? 1 : 0);

/**
 * Actions compiled to integer conditions, stored flat, with indexes by
 * precondition, by effect and by watched condition, so the planner never
 * scans every action or compares strings.
 */
export class PlanningDomain {
  /** Condition → name. */
  readonly conditionNames: string[];
  readonly actions: readonly GoapAction[];
  /** Action → precondition literals. */
  readonly preconditions: IntLists;
  /** Action → effect literals. */
  readonly effects: IntLists;
  readonly costs: Float64Array;
  /** Literal → actions requiring it. */
  readonly requiredBy: IntLists;
  /** Literal → actions producing it. */
  readonly producers: IntLists;
  /** Condition → actions whose applicability or usefulness depends on it (in preconditions or effects). */
  readonly watchers: IntLists;
  /** Action → position in "most preconditions first, then declaration" order. */
  readonly rank: Int32Array;
  /** The most effects any action has. */
  readonly mostEffects: number;
  /** Position → action: the inverse of `rank`, built on first need. */
  private byRank: Int32Array | undefined;
  private readonly conditionIndex: NameTable;
  private readonly actionIndex: NameTable;
  private readonly relevanceCache = new Map<string, Relevance>();
  /** The same, by goal object: a process plans for the same goal objects again and again. */
  private readonly relevanceByGoal = new WeakMap<GoapGoal, Relevance>();

  constructor(actions: readonly GoapAction[]) {
    this.actions = actions;
    const count = actions.length;
    this.costs = new Float64Array(count);
    // Big agents mention about two new conditions per action (an output and `hasRun`).
    this.conditionIndex = new NameTable(2 * count);
    this.conditionNames = this.conditionIndex.names;
    const names = new NameTable(count);
    this.actionIndex = names;
    // Rows are filled in action order, so each list is written straight into
    // its flat form (no per-item row/value arrays to sort afterwards). Plain
    // locals rather than a builder object: see SearchWorkspace on short-lived classes.
    const conditionIndex = this.conditionIndex;
    const preOffsets = new Int32Array(count + 1);
    const effOffsets = new Int32Array(count + 1);
    let preItems = new Int32Array(Math.max(16, 2 * count));
    let effItems = new Int32Array(Math.max(16, 2 * count));
    let preLength = 0;
    let effLength = 0;
    for (let index = 0; index < count; index++) {
      const action = actions[index] as GoapAction;
      if (names.intern(action.name) !== index)
        throw new ConfigurationError(`Two planner actions are named '${action.name}'.`);
      const cost = action.cost ?? 1;
      if (!(cost >= 0))
        throw new ConfigurationError(`Action '${action.name}' has a negative or invalid cost (${cost}).`);
      this.costs[index] = cost;
      const pre = action.preconditions;
      for (const name in pre) {
        if (preLength === preItems.length) preItems = doubled(preItems);
        preItems[preLength++] = literal(conditionIndex.intern(name), pre[name] === true);
      }
      preOffsets[index + 1] = preLength;
      const eff = action.effects;
      for (const name in eff) {
        if (effLength === effItems.length) effItems = doubled(effItems);
        effItems[effLength++] = literal(conditionIndex.intern(name), eff[name] === true);
      }
      effOffsets[index + 1] = effLength;
    }
    this.preconditions = { offsets: preOffsets, items: preItems.slice(0, preLength) };
    this.effects = { offsets: effOffsets, items: effItems.slice(0, effLength) };
    const literals = this.conditionNames.length * 2;
    this.requiredBy = invert(this.preconditions, literals);
    this.producers = invert(this.effects, literals);
    this.watchers = invertWatchers(this.preconditions, this.effects, this.conditionNames.length);
    this.rank = rankByPreconditions(this.preconditions);
    let mostEffects = 0;
    for (let action = 0; action < count; action++)
      mostEffects = Math.max(mostEffects, rowLength(this.effects, action));
    this.mostEffects = mostEffects;
  }

  /** The index of `name`, created when new (goal-only conditions get indexes beyond the action indexes). */
  conditionId(name: string): number {
    return this.conditionIndex.intern(name);
  }

  /** The index of `name`, or -1 when no action or goal mentions it. */
  findCondition(name: string): number {
    return this.conditionIndex.find(name);
  }

  /** The index of the action named `name`, or -1. */
  findAction(name: string): number {
    return this.actionIndex.find(name);
  }

  /** `cond` or `!cond` for a literal. */
  describe(lit: number): string {
    const name = this.conditionNames[lit >> 1] as string;
    return (lit & 1) === 1 ? name : `!${name}`;
  }

  /** The actions and conditions that can matter for `goal`, cached per goal. */
  relevance(goal: GoapGoal): Relevance {
    const known = this.relevanceByGoal.get(goal);
    if (known) return known;
    const key = `${goal.name}\u0000${JSON.stringify(Object.entries(goal.preconditions).sort())}`;
    let relevance = this.relevanceCache.get(key);
    if (!relevance) {
      const goalLiterals: number[] = [];
      for (const name in goal.preconditions) {
        goalLiterals.push(literal(this.conditionId(name), goal.preconditions[name] === true));
      }
      relevance = this.computeRelevance(goalLiterals);
      this.relevanceCache.set(key, relevance);
    }
    this.relevanceByGoal.set(goal, relevance);
    return relevance;
  }

  private computeRelevance(goalLiterals: number[]): Relevance {
    const { producers, effects, preconditions } = this;
    const actionCount = this.actions.length;
    const conditionCount = this.conditionNames.length;
    const actionSeen = new Uint8Array(actionCount);
    const literalSeen = new Uint8Array(conditionCount * 2);
    const conditionSeen = new Uint8Array(conditionCount);
    // Each list holds every item at most once, so its size is known in advance.
    const conditions = new Int32Array(conditionCount);
    let conditionsLength = 0;
    const relevant = new Int32Array(actionCount);
    let relevantLength = 0;
    const queue = new Int32Array(conditionCount * 2);
    let queueLength = 0;
    for (const lit of goalLiterals) {
      if (literalSeen[lit] === 1) continue;
      literalSeen[lit] = 1;
      queue[queueLength++] = lit;
      if (conditionSeen[lit >> 1] === 0) {
        conditionSeen[lit >> 1] = 1;
        conditions[conditionsLength++] = lit >> 1;
      }
    }
    // Backward from the goal: the producers of each needed literal, then their preconditions
    // (loops written out: this runs over every action of a big agent's first plan).
    while (queueLength > 0) {
      const lit = queue[--queueLength] as number;
      if (lit + 1 >= producers.offsets.length) continue;
      for (
        let p = producers.offsets[lit] as number, pEnd = producers.offsets[lit + 1] as number;
        p < pEnd;
        p++
      ) {
        const action = producers.items[p] as number;
        if (actionSeen[action] === 1) continue;
        actionSeen[action] = 1;
        relevant[relevantLength++] = action;
        for (
          let e = effects.offsets[action] as number, eEnd = effects.offsets[action + 1] as number;
          e < eEnd;
          e++
        ) {
          const condition = (effects.items[e] as number) >> 1;
          if (conditionSeen[condition] === 1) continue;
          conditionSeen[condition] = 1;
          conditions[conditionsLength++] = condition;
        }
        for (
          let i = preconditions.offsets[action] as number, iEnd = preconditions.offsets[action + 1] as number;
          i < iEnd;
          i++
        ) {
          const pre = preconditions.items[i] as number;
          if (conditionSeen[pre >> 1] === 0) {
            conditionSeen[pre >> 1] = 1;
            conditions[conditionsLength++] = pre >> 1;
          }
          if (literalSeen[pre] === 1) continue;
          literalSeen[pre] = 1;
          queue[queueLength++] = pre;
        }
      }
    }
    return {
      goalLiterals,
      actions: this.inRankOrder(relevant.subarray(0, relevantLength), actionSeen),
      conditions: conditions.slice(0, conditionsLength),
      isCondition: conditionSeen,
      isAction: actionSeen,
    };
  }

  /** `actions` (flagged in `seen`) in rank order: a sort when few, a pass over the ranking when many. */
  private inRankOrder(actions: Int32Array, seen: Uint8Array): Int32Array {
    if (actions.length <= 64)
      return actions.slice().sort((a, b) => (this.rank[a] as number) - (this.rank[b] as number));
    if (!this.byRank) {
      this.byRank = new Int32Array(this.rank.length);
      for (let action = 0; action < this.rank.length; action++)
        this.byRank[this.rank[action] as number] = action;
    }
    const ordered = new Int32Array(actions.length);
    let length = 0;
    for (let position = 0; position < this.byRank.length; position++) {
      const action = this.byRank[position] as number;
      if (seen[action] === 1) ordered[length++] = action;
    }
    return ordered;
  }
}

/** Calls `fn` with each item of row `row` (rows past the end are empty). */
export function forEachIn(lists: IntLists, row: number, fn: (item: number) => void): void {
  if (row + 1 >= lists.offsets.length) return;
  const end = lists.offsets[row + 1] as number;
  for (let index = lists.offsets[row] as number; index < end; index++) fn(lists.items[index] as number);
}

/** The number of items in row `row`. */
export function rowLength(lists: IntLists, row: number): number {
  if (row + 1 >= lists.offsets.length) return 0;
  return (lists.offsets[row + 1] as number) - (lists.offsets[row] as number);
}

/** A copy of `items` twice as long. */
function doubled(items: Int32Array): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(items.length * 2);
  grown.set(items);
  return grown;
}

/** Item → rows holding it (a counting sort: rows ascending within each item's list). */
function invert(lists: IntLists, itemCount: number): IntLists {
  const { offsets: rowOffsets, items: rowItems } = lists;
  const offsets = new Int32Array(itemCount + 1);
  for (let index = 0; index < rowItems.length; index++) {
    const item = rowItems[index] as number;
    offsets[item + 1] = (offsets[item + 1] as number) + 1;
  }
  for (let item = 0; item < itemCount; item++)
    offsets[item + 1] = (offsets[item + 1] as number) + (offsets[item] as number);
  const cursor = offsets.slice(0, itemCount);
  const items = new Int32Array(rowItems.length);
  const rows = rowOffsets.length - 1;
  for (let row = 0; row < rows; row++) {
    for (let index = rowOffsets[row] as number, end = rowOffsets[row + 1] as number; index < end; index++) {
      const item = rowItems[index] as number;
      const at = cursor[item] as number;
      items[at] = row;
      cursor[item] = at + 1;
    }
  }
  return { offsets, items };
}

/** Condition → actions mentioning it in preconditions or effects (each action once), by counting sort. */
function invertWatchers(pre: IntLists, eff: IntLists, conditions: number): IntLists {
  const actions = pre.offsets.length - 1;
  const offsets = new Int32Array(conditions + 1);
  // `last[c]` is the last action counted (then placed) for condition c, so an action
  // mentioning c twice is listed once; +1 so the zeroed array means "none".
  const last = new Int32Array(conditions);
  for (let action = 0; action < actions; action++) {
    for (let side = 0; side < 2; side++) {
      const { offsets: rowOffsets, items } = side === 0 ? pre : eff;
      for (
        let index = rowOffsets[action] as number, end = rowOffsets[action + 1] as number;
        index < end;
        index++
      ) {
        const condition = (items[index] as number) >> 1;
        if (last[condition] === action + 1) continue;
        last[condition] = action + 1;
        offsets[condition + 1] = (offsets[condition + 1] as number) + 1;
      }
    }
  }
  for (let condition = 0; condition < conditions; condition++)
    offsets[condition + 1] = (offsets[condition + 1] as number) + (offsets[condition] as number);
  const cursor = offsets.slice(0, conditions);
  const items = new Int32Array(offsets[conditions] as number);
  last.fill(0);
  for (let action = 0; action < actions; action++) {
    for (let side = 0; side < 2; side++) {
      const { offsets: rowOffsets, items: rowItems } = side === 0 ? pre : eff;
      for (
        let index = rowOffsets[action] as number, end = rowOffsets[action + 1] as number;
        index < end;
        index++
      ) {
        const condition = (rowItems[index] as number) >> 1;
        if (last[condition] === action + 1) continue;
        last[condition] = action + 1;
        const at = cursor[condition] as number;
        items[at] = action;
        cursor[condition] = at + 1;
      }
    }
  }
  return { offsets, items };
}

/**
 * Action → position in "most preconditions first, then declaration order",
 * by counting sort on the (small) precondition counts instead of a comparison sort.
 */
function rankByPreconditions(pre: IntLists): Int32Array {
  const actions = pre.offsets.length - 1;
  let most = 0;
  for (let action = 0; action < actions; action++) most = Math.max(most, rowLength(pre, action));
  // starts[k]: the first position of the actions with k preconditions (more preconditions come first).
  const starts = new Int32Array(most + 2);
  for (let action = 0; action < actions; action++) {
    const bucket = most - rowLength(pre, action);
    starts[bucket + 1] = (starts[bucket + 1] as number) + 1;
  }
  for (let bucket = 0; bucket <= most; bucket++)
    starts[bucket + 1] = (starts[bucket + 1] as number) + (starts[bucket] as number);
  const rank = new Int32Array(actions);
  for (let action = 0; action < actions; action++) {
    const bucket = most - rowLength(pre, action);
    rank[action] = starts[bucket] as number;
    starts[bucket] = (starts[bucket] as number) + 1;
  }
  return rank;
}
