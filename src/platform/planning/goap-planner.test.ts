import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { type GoapAction, type GoapPlan, GoapPlanner } from "./goap-planner.js";

function action(
  name: string,
  pre: Record<string, boolean>,
  effects: Record<string, boolean>,
  cost?: number,
): GoapAction {
  return { name, preconditions: pre, effects, ...(cost === undefined ? {} : { cost }) };
}

const goal = (preconditions: Record<string, boolean>) => ({ name: "goal", preconditions });

function names(result: ReturnType<GoapPlanner["plan"]>): string[] {
  expect(result.kind).toBe("plan");
  return (result as GoapPlan).actions.map((a) => a.name);
}

function chain(length: number): GoapAction[] {
  return Array.from({ length }, (_, i) => action(`a${i}`, { [`c${i}`]: true }, { [`c${i + 1}`]: true }));
}

describe("GoapPlanner", () => {
  it("plans A then B when A's effect enables B", () => {
    const planner = GoapPlanner.create([
      action("B", { y: true }, { goal: true }),
      action("A", { x: true }, { y: true }),
    ]);
    expect(names(planner.plan(["x"], goal({ goal: true })))).toEqual(["A", "B"]);
  });

  it("returns an empty plan when the goal already holds", () => {
    const planner = GoapPlanner.create([action("A", { x: true }, { goal: true })]);
    const result = planner.plan(["goal"], goal({ goal: true }));
    expect(result).toMatchObject({ kind: "plan", actions: [], cost: 0 });
  });

  it("reports no plan, naming the condition nothing produces", () => {
    const planner = GoapPlanner.create([action("B", { y: true }, { goal: true })]);
    const result = planner.plan([], goal({ goal: true }));
    expect(result.kind).toBe("no-plan");
    if (result.kind !== "no-plan") return;
    expect(result.unsatisfied).toEqual(["goal"]);
    expect(result.unreachable).toEqual(["y"]);
    expect(result.reason).toBe(
      "No plan reaches goal 'goal': unsatisfied conditions [goal]; no action can make [y] hold.",
    );
  });

  it("reports a goal condition no action mentions as unreachable", () => {
    const planner = GoapPlanner.create([action("A", {}, { x: true })]);
    const result = planner.plan([], goal({ nowhere: true }));
    expect(result).toMatchObject({ kind: "no-plan", unsatisfied: ["nowhere"], unreachable: ["nowhere"] });
  });

  it("prefers the cheaper of two routes", () => {
    const planner = GoapPlanner.create([
      action("expensive", { x: true }, { goal: true }, 10),
      action("step1", { x: true }, { y: true }, 1),
      action("step2", { y: true }, { goal: true }, 1),
    ]);
    const result = planner.plan(["x"], goal({ goal: true }));
    expect(names(result)).toEqual(["step1", "step2"]);
    expect((result as GoapPlan).cost).toBe(2);
  });

  it("finds the cheapest plan when one action sets several goal conditions", () => {
    // "shortcut" fixes all three goal conditions at once for 2.5; "prepare" + "finish" costs 2.
    const planner = GoapPlanner.create([
      action("shortcut", {}, { l1: true, l2: true, l3: true }, 2.5),
      action("prepare", {}, { ready: true }, 1),
      action("finish", { ready: true }, { l1: true, l2: true, l3: true }, 1),
    ]);
    const result = planner.plan([], goal({ l1: true, l2: true, l3: true }));
    expect(names(result)).toEqual(["prepare", "finish"]);
    expect((result as GoapPlan).cost).toBe(2);
  });

  it("takes the cheaper branch of a diamond", () => {
    const planner = GoapPlanner.create([
      action("split", { start: true }, { left: true, right: true }),
      action("viaLeft", { left: true }, { joined: true }, 5),
      action("viaRight", { right: true }, { joined: true }, 1),
      action("end", { joined: true, left: true }, { done: true }),
    ]);
    const result = planner.plan(["start"], goal({ done: true }));
    expect(names(result)).toEqual(["split", "viaRight", "end"]);
    expect((result as GoapPlan).cost).toBe(3);
  });

  it("runs an action with several preconditions only once all of them hold", () => {
    const planner = GoapPlanner.create([
      action("merge", { a: true, b: true }, { goal: true }),
      action("makeB", { a: true }, { b: true }),
      action("makeA", {}, { a: true }),
    ]);
    expect(names(planner.plan([], goal({ goal: true })))).toEqual(["makeA", "makeB", "merge"]);
  });

  it("orders actions so a condition another action makes false is restored last", () => {
    // makeB clobbers a; each action runs once, so the only plan is makeB then makeA.
    const planner = GoapPlanner.create([
      action("makeA", { "ran:makeA": false }, { a: true, "ran:makeA": true }),
      action("makeB", { "ran:makeB": false }, { b: true, a: false, "ran:makeB": true }),
    ]);
    expect(names(planner.plan([], goal({ a: true, b: true })))).toEqual(["makeB", "makeA"]);
  });

  it("finds no plan when a needed condition can only be made false", () => {
    const planner = GoapPlanner.create([
      action("close", { open: true }, { open: false }),
      action("use", { open: true }, { goal: true }),
    ]);
    expect(planner.plan([], goal({ goal: true }))).toMatchObject({ kind: "no-plan", unreachable: ["open"] });
  });

  it("plans for conditions that must be false", () => {
    const planner = GoapPlanner.create([
      action("unlock", { locked: true }, { locked: false }),
      action("open", { locked: false }, { open: true }),
    ]);
    expect(names(planner.plan(["locked"], goal({ open: true })))).toEqual(["unlock", "open"]);
  });

  it("accepts the start state as a function of the condition name", () => {
    const planner = GoapPlanner.create([action("A", { x: true }, { goal: true })]);
    expect(names(planner.plan((c) => c === "x", goal({ goal: true })))).toEqual(["A"]);
  });

  it("takes the start state as a set, an array or a one-shot iterable, ignoring repeats and unknown names", () => {
    const planner = GoapPlanner.create([
      action("A", { x: true }, { y: true }),
      action("B", { y: true, z: false }, { goal: true }),
    ]);
    const target = goal({ goal: true });
    expect(names(planner.plan(new Set(["x"]), target))).toEqual(["A", "B"]);
    // A set larger than the goal's relevant conditions is asked per condition instead.
    const big = new Set(["x", ...Array.from({ length: 20 }, (_, i) => `other${i}`)]);
    expect(names(planner.plan(big, target))).toEqual(["A", "B"]);
    expect(names(planner.plan(["x", "x", "unknown"], target))).toEqual(["A", "B"]);
    function* once() {
      yield "x";
      yield "z";
    }
    expect(planner.plan(once(), target)).toMatchObject({ kind: "no-plan", unreachable: ["!z"] });
    expect(names(planner.plan(["y", "y"], target))).toEqual(["B"]);
  });

  it("plans with several planners in turn, small and large, as if each were alone", () => {
    const big = GoapPlanner.create(chain(1_000));
    const small = GoapPlanner.create(chain(3));
    for (let round = 0; round < 2; round++) {
      expect(names(big.plan(["c0"], goal({ c1000: true })))).toHaveLength(1_000);
      expect(names(small.plan(["c1"], goal({ c3: true })))).toEqual(["a1", "a2"]);
    }
  });

  it("leaves excluded actions out, and says so when nothing else works", () => {
    const planner = GoapPlanner.create([
      action("A", {}, { goal: true }, 1),
      action("B", {}, { goal: true }, 5),
    ]);
    expect(names(planner.plan([], goal({ goal: true }), { exclude: new Set(["A"]) }))).toEqual(["B"]);
    const none = planner.plan([], goal({ goal: true }), { exclude: new Set(["A", "B", "not an action"]) });
    expect(none).toMatchObject({ kind: "no-plan", unreachable: ["goal"] });
  });

  it("finds no plan when actions undo each other's preconditions", () => {
    const planner = GoapPlanner.create([
      action("A", { p: true }, { a: true, p: false }),
      action("B", { p: true }, { b: true, p: false }),
    ]);
    const result = planner.plan(["p"], goal({ a: true, b: true }));
    expect(result.kind).toBe("no-plan");
    if (result.kind === "no-plan") expect(result.reason).toMatch(/the actions conflict/);
  });

  it("ignores actions irrelevant to the goal", () => {
    const noise = Array.from({ length: 50 }, (_, i) => action(`noise${i}`, {}, { [`n${i}`]: true }, 0));
    const planner = GoapPlanner.create([...noise, action("A", {}, { goal: true })]);
    const result = planner.plan([], goal({ goal: true }));
    expect(names(result)).toEqual(["A"]);
    expect((result as GoapPlan).expansions).toBe(1);
  });

  it("skips actions whose effects already hold", () => {
    const planner = GoapPlanner.create([
      action("again", {}, { x: true }),
      action("A", { x: true }, { goal: true }),
    ]);
    expect(names(planner.plan(["x"], goal({ goal: true })))).toEqual(["A"]);
  });

  it("finds a state reached in two orders once, and prefers fewer unmet goal conditions on ties", () => {
    const planner = GoapPlanner.create([action("A", {}, { a: true }), action("B", {}, { b: true })]);
    const result = planner.plan([], goal({ a: true, b: true }));
    expect(names(result)).toEqual(["A", "B"]);
    expect((result as GoapPlan).expansions).toBe(2);
  });

  it("plans a 10,000-action chain in order", () => {
    const planner = GoapPlanner.create(chain(10_000));
    const result = planner.plan(["c0"], goal({ c10000: true }));
    const plan = names(result);
    expect(plan).toHaveLength(10_000);
    expect(plan[0]).toBe("a0");
    expect(plan[9_999]).toBe("a9999");
  });

  it("plans from the middle of a chain when part of it already holds", () => {
    const planner = GoapPlanner.create(chain(10));
    expect(names(planner.plan(["c7"], goal({ c10: true })))).toEqual(["a7", "a8", "a9"]);
  });

  it("gives up after maxExpansions", () => {
    const planner = GoapPlanner.create(chain(100));
    const result = planner.plan(["c0"], goal({ c100: true }), { maxExpansions: 10 });
    expect(result.kind).toBe("no-plan");
  });

  it("refuses two actions with one name", () => {
    expect(() => GoapPlanner.create([action("A", {}, {}), action("A", {}, {})])).toThrow(ConfigurationError);
  });

  it("refuses a negative cost", () => {
    expect(() => GoapPlanner.create([action("A", {}, { x: true }, -1)])).toThrow(/negative or invalid cost/);
  });

  it("lists every condition the actions mention", () => {
    const planner = GoapPlanner.create([action("A", { x: true }, { y: true })]);
    expect(planner.conditions).toEqual(["x", "y"]);
  });
});
