import { aStarSearch } from "./a-star-search.js";
import { type GoapAction, type GoapGoal, PlanningDomain, type Relevance } from "./planning-domain.js";
import { explainNoPlan } from "./relaxed-reachability.js";

/** The true conditions of a world state: a set or list of names, or a function asked per condition. */
export type WorldStateInit = Iterable<string> | ((condition: string) => boolean);

/** A plan: the actions to run in order (the process runs the first, then replans). */
export interface GoapPlan {
  /** Discriminates a plan from {@link GoapNoPlan}. */
  readonly kind: "plan";
  /** The goal planned for. */
  readonly goal: GoapGoal;
  /** The actions in order; empty when the goal already holds. */
  readonly actions: readonly GoapAction[];
  /** The sum of the actions' costs. */
  readonly cost: number;
  /** How many search nodes were expanded. */
  readonly expansions: number;
}

/** No plan reaches the goal from the start state, and why. */
export interface GoapNoPlan {
  /** Discriminates a failure from {@link GoapPlan}. */
  readonly kind: "no-plan";
  /** The goal no plan reaches. */
  readonly goal: GoapGoal;
  /** Goal conditions that do not hold in the start state (`name`, or `!name` for a required false). */
  readonly unsatisfied: readonly string[];
  /** Conditions that block the goal and that no available action can make hold. */
  readonly unreachable: readonly string[];
  /** One sentence naming the conditions. */
  readonly reason: string;
}

/** Per-call options of {@link GoapPlanner.plan}. */
export interface PlanOptions {
  /** Action names not to use in this plan. @default none */
  readonly exclude?: ReadonlySet<string>;
  /** Gives up after this many node expansions. @default 100_000 */
  readonly maxExpansions?: number;
}

/**
 * A GOAP planner: A* over world states of boolean conditions. Conditions and
 * actions are compiled to integers once; each plan call prunes the domain to
 * the actions relevant to the goal (backward from it), checks reachability
 * ignoring deletions, then runs A* where a node stores only the conditions
 * it flipped, states are hashed incrementally, and only actions watching a
 * changed condition are re-examined: time grows about linearly with the
 * number of actions on chain-shaped domains.
 *
 * @example
 * const planner = GoapPlanner.create([
 *   { name: "draft", preconditions: { "has:Topic": true }, effects: { "has:Draft": true } },
 *   { name: "review", preconditions: { "has:Draft": true }, effects: { "has:Review": true } },
 * ]);
 * planner.plan(["has:Topic"], { name: "reviewed", preconditions: { "has:Review": true } });
 * // { kind: "plan", actions: [draft, review], cost: 2, ... }
 */
export class GoapPlanner {
  private readonly domain: PlanningDomain;

  private constructor(
    /** The actions, as given. */
    readonly actions: readonly GoapAction[],
  ) {
    this.domain = new PlanningDomain(actions);
  }

  /** A planner over `actions` (names must be unique; costs non-negative). */
  static create(actions: readonly GoapAction[]): GoapPlanner {
    return new GoapPlanner(actions);
  }

  /** Every condition the actions mention (and goals planned for so far). */
  get conditions(): readonly string[] {
    return this.domain.conditionNames;
  }

  /**
   * The conditions a plan for `goal` can depend on (those of the actions
   * relevant to it, and its own): two start states that agree on them get the
   * same plan.
   */
  relevantConditions(goal: GoapGoal): readonly string[] {
    const relevance = this.domain.relevance(goal);
    relevance.names ??= Object.freeze(
      Array.from(relevance.conditions, (condition) => this.domain.conditionNames[condition] as string),
    );
    return relevance.names;
  }

  /** The cheapest plan from `start` to `goal`, or why there is none. */
  plan(start: WorldStateInit, goal: GoapGoal, options: PlanOptions = {}): GoapPlan | GoapNoPlan {
    const domain = this.domain;
    const relevance = domain.relevance(goal);
    const startMask = new Uint8Array(domain.conditionNames.length);
    const trueConditions = this.trueConditions(start, relevance, startMask);
    const unsatisfied = relevance.goalLiterals.filter((lit) => startMask[lit >> 1] !== (lit & 1));
    if (unsatisfied.length === 0) return { kind: "plan", goal, actions: [], cost: 0, expansions: 0 };
    const excluded = new Uint8Array(domain.actions.length);
    for (const name of options.exclude ?? []) {
      const action = domain.findAction(name);
      if (action >= 0) excluded[action] = 1;
    }
    const unreachable = explainNoPlan(domain, relevance, startMask, excluded);
    if (unreachable.length > 0) return this.noPlan(goal, unsatisfied, unreachable);
    const found = aStarSearch({
      domain,
      relevance,
      trueConditions,
      unmet: unsatisfied.length,
      excluded,
      maxExpansions: options.maxExpansions ?? 100_000,
    });
    if (found.actions === undefined) return this.noPlan(goal, unsatisfied, [], found.expansions);
    return { kind: "plan", goal, actions: found.actions, cost: found.cost, expansions: found.expansions };
  }

  /**
   * The relevant conditions true in `start`, also flagged in `startMask`. A
   * function is asked about each relevant condition; a collection's names are
   * looked up instead when they are fewer (a big agent starts with few true).
   */
  private trueConditions(start: WorldStateInit, relevance: Relevance, startMask: Uint8Array): number[] {
    const domain = this.domain;
    const trueConditions: number[] = [];
    const { conditions, isCondition } = relevance;
    if (typeof start !== "function" && !(start instanceof Set && start.size > conditions.length)) {
      for (const name of start) {
        const condition = domain.findCondition(name);
        if (condition < 0 || isCondition[condition] !== 1 || startMask[condition] === 1) continue;
        startMask[condition] = 1;
        trueConditions.push(condition);
      }
      return trueConditions;
    }
    const holds = typeof start === "function" ? start : (name: string) => start.has(name);
    for (let index = 0; index < conditions.length; index++) {
      const condition = conditions[index] as number;
      if (!holds(domain.conditionNames[condition] as string)) continue;
      startMask[condition] = 1;
      trueConditions.push(condition);
    }
    return trueConditions;
  }

  private noPlan(
    goal: GoapGoal,
    unsatisfied: number[],
    unreachable: number[],
    expansions?: number,
  ): GoapNoPlan {
    const names = unsatisfied.map((lit) => this.domain.describe(lit));
    const blocked = unreachable.map((lit) => this.domain.describe(lit));
    const why =
      blocked.length > 0
        ? `no action can make [${blocked.join(", ")}] hold`
        : `the actions conflict${expansions === undefined ? "" : ` (searched ${expansions} states)`}`;
    const reason = `No plan reaches goal '${goal.name}': unsatisfied conditions [${names.join(", ")}]; ${why}.`;
    return { kind: "no-plan", goal, unsatisfied: names, unreachable: blocked, reason };
  }
}

export type { GoapAction, GoapGoal } from "./planning-domain.js";
