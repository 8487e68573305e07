import { ConfigurationError } from "../../errors/configuration-error.js";
import { doubled } from "./doubled.js";
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

/** What the planner knows of one goal: the part of the domain that matters for it, and its heuristic. */
export interface Relevance {
  /** Goal literals (`2 * condition + value`). */
  readonly goalLiterals: readonly number[];
  /** Condition → the value the goal wants (0 or 1), or -1. */
  readonly goalValues: Int8Array;
  /** Actions that can contribute (backward from the goal), ascending: the order the search tries them in. */
  readonly actions: Int32Array;
  /** Conditions those actions and the goal mention. */
  readonly conditions: Int32Array;
  /** Condition → 1 when it is one of `conditions` (conditions added later are past its end). */
  readonly isCondition: Uint8Array;
  /** Action → 1 when it is one of `actions`. */
  readonly isAction: Uint8Array;
  /** The most goal literals one of `actions` makes hold (at least 1). */
  readonly fixesPerAction: number;
  /** The cheapest of `actions`' costs (0 when there are none). */
  readonly cheapest: number;
  /** The names of `conditions`, once asked for. */
  names?: readonly string[];
}

/**
 * Actions compiled to integer conditions, stored flat, with an index from
 * each literal (`2 * condition + value`) to the actions that mention it, so
 * the planner never scans every action or compares strings. Actions are
 * numbered most preconditions first, then in declaration order: the order
 * the search tries them in, so sorting numbers puts actions in it.
 */
export class PlanningDomain {
  /** Condition → name, in order of first mention. */
  readonly conditionNames: string[];
  /** Action number → action. */
  readonly actions: GoapAction[];
  readonly costs: Float64Array;
  /**
   * Action `a`'s precondition literals are `literals[start[a] … effectsStart[a])`,
   * its effect literals `literals[effectsStart[a] … start[a + 1])`.
   */
  readonly start: Int32Array;
  readonly effectsStart: Int32Array;
  readonly literals: Int32Array;
  /**
   * Literal `l`'s actions, in declaration order: those requiring it are
   * `users[usersStart[2l] … usersStart[2l + 1])`, those making it hold follow
   * up to `usersStart[2l + 2]`; so condition `c`'s four rows, from
   * `usersStart[4c]` to `usersStart[4c + 4]`, hold every action mentioning it.
   * Conditions added after compiling (a goal's own) are past the end.
   */
  readonly usersStart: Int32Array;
  readonly users: Int32Array;
  private readonly conditionIndex: NameTable;
  private readonly actionIndex: NameTable;
  /** Declaration index → action number. */
  private readonly numbers: Int32Array;
  private readonly relevanceByGoal = new WeakMap<GoapGoal, Relevance>();

  constructor(declared: readonly GoapAction[]) {
    const count = declared.length;
    // Big agents mention about two new conditions per action (an output and `hasRun`).
    this.conditionIndex = new NameTable(2 * count);
    this.conditionNames = this.conditionIndex.names;
    this.actionIndex = new NameTable(count);
    // Loops in module-level functions, one pass each: see SearchWorkspace on compiled code and GC.
    const read = readActions(declared, this.conditionIndex, this.actionIndex);
    ({
      actions: this.actions,
      costs: this.costs,
      start: this.start,
      effectsStart: this.effectsStart,
      literals: this.literals,
      numbers: this.numbers,
    } = numberActions(declared, read));
    ({ usersStart: this.usersStart, users: this.users } = indexByLiteral(
      read,
      this.numbers,
      this.conditionNames.length,
    ));
  }

  /** The index of `name`, or -1 when no action or goal mentions it. */
  findCondition(name: string): number {
    return this.conditionIndex.find(name);
  }

  /** The number of the action named `name`, or -1. */
  findAction(name: string): number {
    return this.numbers[this.actionIndex.find(name)] ?? -1;
  }

  /** `cond` or `!cond` for a literal. */
  describe(lit: number): string {
    const name = this.conditionNames[lit >> 1] as string;
    return (lit & 1) === 1 ? name : `!${name}`;
  }

  /** The actions and conditions that can matter for `goal`, kept per goal object. */
  relevance(goal: GoapGoal): Relevance {
    let relevance = this.relevanceByGoal.get(goal);
    if (!relevance) {
      const goalLiterals: number[] = [];
      // Goal-only conditions get indexes beyond the actions' conditions.
      for (const name in goal.preconditions)
        goalLiterals.push(2 * this.conditionIndex.intern(name) + (goal.preconditions[name] === true ? 1 : 0));
      relevance = this.computeRelevance(goalLiterals);
      this.relevanceByGoal.set(goal, relevance);
    }
    return relevance;
  }

  /** Backward from the goal: the makers of each needed literal, then their preconditions. */
  private computeRelevance(goalLiterals: number[]): Relevance {
    const { users, usersStart, start, effectsStart, literals, costs } = this;
    const actionCount = this.actions.length;
    const conditionCount = this.conditionNames.length;
    const isAction = new Uint8Array(actionCount);
    const literalSeen = new Uint8Array(conditionCount * 2);
    const isCondition = new Uint8Array(conditionCount);
    const goalValues = new Int8Array(conditionCount).fill(-1);
    // Each list holds every item at most once, so its size is known in advance.
    const conditions = new Int32Array(conditionCount);
    let conditionsLength = 0;
    const relevant = new Int32Array(actionCount);
    let relevantLength = 0;
    const queue = new Int32Array(conditionCount * 2);
    let queueLength = 0;
    let fixesPerAction = 1;
    let cheapest = Number.POSITIVE_INFINITY;
    for (const lit of goalLiterals) {
      goalValues[lit >> 1] = lit & 1;
      if (literalSeen[lit] === 1) continue;
      literalSeen[lit] = 1;
      queue[queueLength++] = lit;
      if (isCondition[lit >> 1] === 0) {
        isCondition[lit >> 1] = 1;
        conditions[conditionsLength++] = lit >> 1;
      }
    }
    // Loops written out: this runs over every action of a big agent's first plan.
    while (queueLength > 0) {
      const lit = queue[--queueLength] as number;
      if (2 * lit + 2 >= usersStart.length) continue;
      for (
        let p = usersStart[2 * lit + 1] as number, pEnd = usersStart[2 * lit + 2] as number;
        p < pEnd;
        p++
      ) {
        const action = users[p] as number;
        if (isAction[action] === 1) continue;
        isAction[action] = 1;
        relevant[relevantLength++] = action;
        cheapest = Math.min(cheapest, costs[action] as number);
        let fixes = 0;
        for (let i = effectsStart[action] as number, end = start[action + 1] as number; i < end; i++) {
          const condition = (literals[i] as number) >> 1;
          if (goalValues[condition] === ((literals[i] as number) & 1)) fixes++;
          if (isCondition[condition] === 1) continue;
          isCondition[condition] = 1;
          conditions[conditionsLength++] = condition;
        }
        for (let i = start[action] as number, end = effectsStart[action] as number; i < end; i++) {
          const pre = literals[i] as number;
          if (isCondition[pre >> 1] === 0) {
            isCondition[pre >> 1] = 1;
            conditions[conditionsLength++] = pre >> 1;
          }
          if (literalSeen[pre] === 1) continue;
          literalSeen[pre] = 1;
          queue[queueLength++] = pre;
        }
        fixesPerAction = Math.max(fixesPerAction, fixes);
      }
    }
    return {
      goalLiterals,
      goalValues,
      actions: relevant.slice(0, relevantLength).sort(),
      conditions: conditions.slice(0, conditionsLength),
      isCondition,
      isAction,
      fixesPerAction,
      cheapest: relevantLength > 0 ? cheapest : 0,
    };
  }
}

/** The actions' literals in declaration order (conditions are numbered as first mentioned). */
interface ReadActions {
  /** Action `i`'s literals are `keys[starts[i] … starts[i + 1])`, its effects from `effectStarts[i]`. */
  readonly starts: Int32Array;
  readonly effectStarts: Int32Array;
  /** Each literal as `2 * literal + side` (0 in preconditions, 1 in effects): its row in the index by literal. */
  readonly keys: Int32Array;
}

/** Reads and checks the actions (names unique, costs non-negative), interning their names and conditions. */
function readActions(declared: readonly GoapAction[], conditions: NameTable, names: NameTable): ReadActions {
  const count = declared.length;
  const starts = new Int32Array(count + 1);
  const effectStarts = new Int32Array(count);
  // Typed arrays rather than `push`: a 10,000-action compile measured clearly faster so.
  let keys = new Int32Array(4 * count + 16);
  let length = 0;
  for (let index = 0; index < count; index++) {
    const { name, preconditions, effects, cost = 1 } = declared[index] as GoapAction;
    if (names.intern(name) !== index)
      throw new ConfigurationError(`Two planner actions are named '${name}'.`);
    if (!(cost >= 0))
      throw new ConfigurationError(`Action '${name}' has a negative or invalid cost (${cost}).`);
    for (const name in preconditions) {
      if (length === keys.length) keys = doubled(keys);
      keys[length++] = 4 * conditions.intern(name) + (preconditions[name] === true ? 2 : 0);
    }
    effectStarts[index] = length;
    for (const name in effects) {
      if (length === keys.length) keys = doubled(keys);
      keys[length++] = 4 * conditions.intern(name) + (effects[name] === true ? 3 : 1);
    }
    starts[index + 1] = length;
  }
  return { starts, effectStarts, keys: keys.subarray(0, length) };
}

/** The actions numbered most preconditions first, then in declaration order, with their literals and costs. */
function numberActions(declared: readonly GoapAction[], { starts, effectStarts, keys }: ReadActions) {
  const count = declared.length;
  // Number → declaration index: a numeric sort on `index - preconditions * count`.
  const order = new Float64Array(count);
  for (let index = 0; index < count; index++)
    order[index] = index - ((effectStarts[index] as number) - (starts[index] as number)) * count;
  order.sort();
  const actions: GoapAction[] = new Array(count);
  const costs = new Float64Array(count);
  const start = new Int32Array(count + 1);
  const effectsStart = new Int32Array(count);
  const literals = new Int32Array(keys.length);
  const numbers = new Int32Array(count);
  for (let number = 0; number < count; number++) {
    const index = (((order[number] as number) % count) + count) % count;
    numbers[index] = number;
    actions[number] = declared[index] as GoapAction;
    costs[number] = declared[index]?.cost ?? 1;
    const at = (start[number] as number) - (starts[index] as number);
    for (let i = starts[index] as number; i < (starts[index + 1] as number); i++)
      literals[at + i] = (keys[i] as number) >> 1;
    effectsStart[number] = at + (effectStarts[index] as number);
    start[number + 1] = at + (starts[index + 1] as number);
  }
  return { actions, costs, start, effectsStart, literals, numbers };
}

/**
 * The index by literal over `conditions` conditions: a counting sort of the keys, in
 * declaration order. Each row is counted two places on, and the running sums
 * then serve as the rows' write positions.
 */
function indexByLiteral({ starts, keys }: ReadActions, numbers: Int32Array, conditions: number) {
  const rows = 4 * conditions;
  const usersStart = new Int32Array(rows + 2);
  const users = new Int32Array(keys.length);
  for (const key of keys) usersStart[key + 2] = (usersStart[key + 2] as number) + 1;
  for (let row = 2; row < rows + 2; row++)
    usersStart[row] = (usersStart[row] as number) + (usersStart[row - 1] as number);
  for (let index = 0; index < numbers.length; index++)
    for (let i = starts[index] as number; i < (starts[index + 1] as number); i++) {
      const row = (keys[i] as number) + 1;
      users[usersStart[row] as number] = numbers[index] as number;
      usersStart[row] = (usersStart[row] as number) + 1;
    }
  return { usersStart, users };
}
