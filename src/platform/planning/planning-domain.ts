import { ConfigurationError } from "../../errors/configuration-error.js";

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
  readonly actions: readonly number[];
  /** Conditions those actions and the goal mention. */
  readonly conditions: readonly number[];
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
  readonly conditionNames: string[] = [];
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
  /** Position → action: the inverse of `rank`, built on first need. */
  private byRank: Int32Array | undefined;
  private readonly conditionIndex = new Map<string, number>();
  private readonly relevanceCache = new Map<string, Relevance>();
  /** The same, by goal object: a process plans for the same goal objects again and again. */
  private readonly relevanceByGoal = new WeakMap<GoapGoal, Relevance>();

  constructor(actions: readonly GoapAction[]) {
    this.actions = actions;
    const count = actions.length;
    this.costs = new Float64Array(count);
    const names = new Set<string>();
    // Rows are filled in action order, so each list is written straight into
    // its flat form (no per-item row/value arrays to sort afterwards).
    const pre = new RowsInOrder(count);
    const eff = new RowsInOrder(count);
    for (let index = 0; index < count; index++) {
      const action = actions[index] as GoapAction;
      if (names.has(action.name))
        throw new ConfigurationError(`Two planner actions are named '${action.name}'.`);
      names.add(action.name);
      const cost = action.cost ?? 1;
      if (!(cost >= 0))
        throw new ConfigurationError(`Action '${action.name}' has a negative or invalid cost (${cost}).`);
      this.costs[index] = cost;
      this.addLiterals(pre, action.preconditions);
      pre.endRow(index);
      this.addLiterals(eff, action.effects);
      eff.endRow(index);
    }
    this.preconditions = pre.build();
    this.effects = eff.build();
    const literals = this.conditionNames.length * 2;
    this.requiredBy = invert(this.preconditions, literals);
    this.producers = invert(this.effects, literals);
    this.watchers = invertWatchers(this.preconditions, this.effects, this.conditionNames.length);
    this.rank = rankByPreconditions(this.preconditions);
  }

  /** The index of `name`, created when new (goal-only conditions get indexes beyond the action indexes). */
  conditionId(name: string): number {
    let id = this.conditionIndex.get(name);
    if (id === undefined) {
      id = this.conditionNames.length;
      this.conditionNames.push(name);
      this.conditionIndex.set(name, id);
    }
    return id;
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
    const actionSeen = new Uint8Array(this.actions.length);
    const literalSeen = new Uint8Array(this.conditionNames.length * 2);
    const conditionSeen = new Uint8Array(this.conditionNames.length);
    const conditions: number[] = [];
    const relevant: number[] = [];
    const queue: number[] = [];
    const { producers, effects, preconditions } = this;
    for (const lit of goalLiterals) {
      literalSeen[lit] = 1;
      queue.push(lit);
      if (conditionSeen[lit >> 1] === 0) {
        conditionSeen[lit >> 1] = 1;
        conditions.push(lit >> 1);
      }
    }
    // Backward from the goal: the producers of each needed literal, then their preconditions
    // (loops written out: this runs over every action of a big agent's first plan).
    while (queue.length > 0) {
      const lit = queue.pop() as number;
      if (lit + 1 >= producers.offsets.length) continue;
      for (
        let p = producers.offsets[lit] as number, pEnd = producers.offsets[lit + 1] as number;
        p < pEnd;
        p++
      ) {
        const action = producers.items[p] as number;
        if (actionSeen[action] === 1) continue;
        actionSeen[action] = 1;
        relevant.push(action);
        for (
          let e = effects.offsets[action] as number, eEnd = effects.offsets[action + 1] as number;
          e < eEnd;
          e++
        ) {
          const condition = (effects.items[e] as number) >> 1;
          if (conditionSeen[condition] === 1) continue;
          conditionSeen[condition] = 1;
          conditions.push(condition);
        }
        for (
          let i = preconditions.offsets[action] as number, iEnd = preconditions.offsets[action + 1] as number;
          i < iEnd;
          i++
        ) {
          const pre = preconditions.items[i] as number;
          if (conditionSeen[pre >> 1] === 0) {
            conditionSeen[pre >> 1] = 1;
            conditions.push(pre >> 1);
          }
          if (literalSeen[pre] === 1) continue;
          literalSeen[pre] = 1;
          queue.push(pre);
        }
      }
    }
    return { goalLiterals, actions: this.inRankOrder(relevant, actionSeen), conditions };
  }

  /** `actions` (flagged in `seen`) in rank order: a sort when few, a pass over the ranking when many. */
  private inRankOrder(actions: number[], seen: Uint8Array): number[] {
    if (actions.length <= 64)
      return actions.sort((a, b) => (this.rank[a] as number) - (this.rank[b] as number));
    if (!this.byRank) {
      this.byRank = new Int32Array(this.rank.length);
      for (let action = 0; action < this.rank.length; action++)
        this.byRank[this.rank[action] as number] = action;
    }
    const ordered: number[] = [];
    for (let position = 0; position < this.byRank.length; position++) {
      const action = this.byRank[position] as number;
      if (seen[action] === 1) ordered.push(action);
    }
    return ordered;
  }

  private addLiterals(rows: RowsInOrder, conditions: Readonly<Record<string, boolean>>): void {
    for (const name in conditions) rows.add(literal(this.conditionId(name), conditions[name] === true));
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

/** Builds {@link IntLists} whose rows are filled one after the other, in order. */
class RowsInOrder {
  private readonly offsets: Int32Array;
  private items: Int32Array;
  private length = 0;

  constructor(rowCount: number) {
    this.offsets = new Int32Array(rowCount + 1);
    this.items = new Int32Array(Math.max(16, rowCount * 2));
  }

  add(value: number): void {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = value;
  }

  /** Closes row `row` (rows must be closed in order). */
  endRow(row: number): void {
    this.offsets[row + 1] = this.length;
  }

  build(): IntLists {
    return { offsets: this.offsets, items: this.items.slice(0, this.length) };
  }
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
  const last = new Int32Array(conditions).fill(-1);
  // Pass 1 counts, pass 2 places; `last` skips a condition an action mentions twice.
  const visit = (action: number, lists: IntLists, place: (condition: number) => void) => {
    for (
      let index = lists.offsets[action] as number, end = lists.offsets[action + 1] as number;
      index < end;
      index++
    ) {
      const condition = (lists.items[index] as number) >> 1;
      if (last[condition] === action) continue;
      last[condition] = action;
      place(condition);
    }
  };
  const countOne = (condition: number) => {
    offsets[condition + 1] = (offsets[condition + 1] as number) + 1;
  };
  for (let action = 0; action < actions; action++) {
    visit(action, pre, countOne);
    visit(action, eff, countOne);
  }
  for (let condition = 0; condition < conditions; condition++)
    offsets[condition + 1] = (offsets[condition + 1] as number) + (offsets[condition] as number);
  const cursor = offsets.slice(0, conditions);
  const items = new Int32Array(offsets[conditions] as number);
  last.fill(-1);
  for (let action = 0; action < actions; action++) {
    const placeOne = (condition: number) => {
      const at = cursor[condition] as number;
      items[at] = action;
      cursor[condition] = at + 1;
    };
    visit(action, pre, placeOne);
    visit(action, eff, placeOne);
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
