import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type GoapAction, GoapPlanner } from "./goap-planner.js";

const CONDITIONS = ["a", "b", "c", "d", "e"];

/** A literal map over a random subset of the conditions. */
const literals = fc
  .array(fc.tuple(fc.constantFrom(...CONDITIONS), fc.boolean()), { maxLength: 4 })
  .map((pairs) => Object.fromEntries(pairs));

const domain = fc.record({
  actions: fc.array(fc.record({ pre: literals, effects: literals, cost: fc.integer({ min: 1, max: 9 }) }), {
    minLength: 1,
    maxLength: 7,
  }),
  start: fc.subarray(CONDITIONS),
  /** How the start state is given: each form has its own path into the planner. */
  startForm: fc.constantFrom("array", "set", "function", "repeats and unknown names"),
  goal: literals.filter((goal) => Object.keys(goal).length > 0),
});

type State = ReadonlySet<string>;
const holdsAll = (state: State, conditions: Record<string, boolean>) =>
  Object.entries(conditions).every(([name, value]) => state.has(name) === value);
const apply = (state: State, effects: Record<string, boolean>): State => {
  const next = new Set(state);
  for (const [name, value] of Object.entries(effects)) {
    if (value) next.add(name);
    else next.delete(name);
  }
  return next;
};
const key = (state: State) => [...state].sort().join(",");

/** The cheapest cost from `start` to the goal by exhaustive Dijkstra over every state, or undefined. */
function cheapest(actions: GoapAction[], start: State, goal: Record<string, boolean>): number | undefined {
  const best = new Map<string, number>([[key(start), 0]]);
  const frontier: [State, number][] = [[start, 0]];
  let answer: number | undefined;
  while (frontier.length > 0) {
    frontier.sort((x, y) => x[1] - y[1]);
    const [state, cost] = frontier.shift() as [State, number];
    if (cost > (best.get(key(state)) ?? Number.POSITIVE_INFINITY)) continue;
    if (holdsAll(state, goal)) {
      answer = Math.min(answer ?? cost, cost);
      continue;
    }
    for (const action of actions) {
      if (!holdsAll(state, action.preconditions)) continue;
      const next = apply(state, action.effects);
      const nextCost = cost + (action.cost ?? 1);
      if (nextCost < (best.get(key(next)) ?? Number.POSITIVE_INFINITY)) {
        best.set(key(next), nextCost);
        frontier.push([next, nextCost]);
      }
    }
  }
  return answer;
}

describe("GoapPlanner (against exhaustive search on random domains)", () => {
  it("finds a valid plan exactly when one exists, and always the cheapest", () => {
    fc.assert(
      fc.property(domain, ({ actions: specs, start, startForm, goal }) => {
        const actions: GoapAction[] = specs.map((spec, index) => ({
          name: `x${index}`,
          preconditions: spec.pre,
          effects: spec.effects,
          cost: spec.cost,
        }));
        const given =
          startForm === "set"
            ? new Set(start)
            : startForm === "function"
              ? (condition: string) => start.includes(condition)
              : startForm === "array"
                ? start
                : [...start, ...start, "unknown"];
        const result = GoapPlanner.create(actions).plan(given, { name: "goal", preconditions: goal });
        const expected = cheapest(actions, new Set(start), goal);
        if (expected === undefined) {
          expect(result.kind).toBe("no-plan");
          return;
        }
        expect(result.kind).toBe("plan");
        if (result.kind !== "plan") return;
        let state: State = new Set(start);
        for (const action of result.actions) {
          expect(holdsAll(state, action.preconditions)).toBe(true);
          state = apply(state, action.effects);
        }
        expect(holdsAll(state, goal)).toBe(true);
        expect(result.cost).toBe(expected);
      }),
      {
        numRuns: 5_000,
        // Cases an earlier, overestimating heuristic got wrong (found by this property).
        examples: [
          [
            {
              actions: [
                { pre: {}, effects: { d: true, b: true }, cost: 1 },
                { pre: {}, effects: { d: false, c: true }, cost: 1 },
                { pre: {}, effects: {}, cost: 1 },
              ],
              start: [],
              startForm: "array",
              goal: { c: true, b: true, d: false },
            },
          ],
          [
            {
              actions: [
                { pre: {}, effects: { a: true, b: true, c: true }, cost: 5 },
                { pre: {}, effects: { d: true }, cost: 1 },
                { pre: { d: true }, effects: { a: true, b: true, c: true }, cost: 1 },
              ],
              start: [],
              startForm: "array",
              goal: { a: true, b: true, c: true },
            },
          ],
        ],
      },
    );
  });
});
