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
  private readonly conditionIndex = new Map<string, number>();
  private readonly relevanceCache = new Map<string, Relevance>();

  constructor(actions: readonly GoapAction[]) {
    this.actions = actions;
    const count = actions.length;
    this.costs = new Float64Array(count);
    const names = new Set<string>();
    const pre = new RowBuilder(count);
    const eff = new RowBuilder(count);
    actions.forEach((action, index) => {
      if (names.has(action.name))
        throw new ConfigurationError(`Two planner actions are named '${action.name}'.`);
      names.add(action.name);
      const cost = action.cost ?? 1;
      if (!(cost >= 0))
        throw new ConfigurationError(`Action '${action.name}' has a negative or invalid cost (${cost}).`);
      this.costs[index] = cost;
      this.addLiterals(pre, index, action.preconditions);
      this.addLiterals(eff, index, action.effects);
    });
    this.preconditions = pre.build();
    this.effects = eff.build();
    const literals = this.conditionNames.length * 2;
    this.requiredBy = invert(this.preconditions, literals, (lit) => lit);
    this.producers = invert(this.effects, literals, (lit) => lit);
    this.watchers = invertWatchers(this.preconditions, this.effects, this.conditionNames.length);
    const order = Array.from({ length: count }, (_, index) => index);
    const preCount = (action: number) => rowLength(this.preconditions, action);
    order.sort((a, b) => preCount(b) - preCount(a) || a - b);
    this.rank = new Int32Array(count);
    order.forEach((action, position) => {
      this.rank[action] = position;
    });
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
    return relevance;
  }

  private computeRelevance(goalLiterals: number[]): Relevance {
    const actionSeen = new Uint8Array(this.actions.length);
    const literalSeen = new Uint8Array(this.conditionNames.length * 2);
    const conditionSeen = new Uint8Array(this.conditionNames.length);
    const conditions: number[] = [];
    const noteCondition = (condition: number) => {
      if (conditionSeen[condition] === 1) return;
      conditionSeen[condition] = 1;
      conditions.push(condition);
    };
    const relevant: number[] = [];
    const queue: number[] = [];
    for (const lit of goalLiterals) {
      literalSeen[lit] = 1;
      queue.push(lit);
      noteCondition(lit >> 1);
    }
    while (queue.length > 0) {
      const lit = queue.pop() as number;
      forEachIn(this.producers, lit, (action) => {
        if (actionSeen[action] === 1) return;
        actionSeen[action] = 1;
        relevant.push(action);
        forEachIn(this.effects, action, (effect) => noteCondition(effect >> 1));
        forEachIn(this.preconditions, action, (pre) => {
          noteCondition(pre >> 1);
          if (literalSeen[pre] === 1) return;
          literalSeen[pre] = 1;
          queue.push(pre);
        });
      });
    }
    relevant.sort((a, b) => (this.rank[a] as number) - (this.rank[b] as number));
    return { goalLiterals, actions: relevant, conditions };
  }

  private addLiterals(rows: RowBuilder, row: number, conditions: Readonly<Record<string, boolean>>): void {
    for (const name in conditions) rows.add(row, literal(this.conditionId(name), conditions[name] === true));
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

class RowBuilder {
  private readonly rows: number[] = [];
  private readonly values: number[] = [];
  constructor(private readonly rowCount: number) {}
  add(row: number, value: number): void {
    this.rows.push(row);
    this.values.push(value);
  }
  build(): IntLists {
    const offsets = new Int32Array(this.rowCount + 1);
    for (const row of this.rows) offsets[row + 1] = (offsets[row + 1] as number) + 1;
    for (let row = 0; row < this.rowCount; row++)
      offsets[row + 1] = (offsets[row + 1] as number) + (offsets[row] as number);
    const cursor = offsets.slice(0, this.rowCount);
    const items = new Int32Array(this.values.length);
    this.rows.forEach((row, index) => {
      items[cursor[row] as number] = this.values[index] as number;
      cursor[row] = (cursor[row] as number) + 1;
    });
    return { offsets, items };
  }
}

function invert(lists: IntLists, rowCount: number, key: (item: number) => number): IntLists {
  const builder = new RowBuilder(rowCount);
  const actions = lists.offsets.length - 1;
  for (let action = 0; action < actions; action++)
    forEachIn(lists, action, (item) => builder.add(key(item), action));
  return builder.build();
}

function invertWatchers(pre: IntLists, eff: IntLists, conditions: number): IntLists {
  const builder = new RowBuilder(conditions);
  const last = new Int32Array(conditions).fill(-1);
  const actions = pre.offsets.length - 1;
  const note = (action: number) => (lit: number) => {
    const condition = lit >> 1;
    if (last[condition] === action) return;
    last[condition] = action;
    builder.add(condition, action);
  };
  for (let action = 0; action < actions; action++) {
    forEachIn(pre, action, note(action));
    forEachIn(eff, action, note(action));
  }
  return builder.build();
}
