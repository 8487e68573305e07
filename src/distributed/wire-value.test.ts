import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { SerializationError } from "../errors/serialization-error.js";
import { AgentProcess } from "../platform/agent-process.js";
import { Blackboard } from "../platform/blackboard.js";
import { defineAgent } from "../platform/define-agent.js";
import { domainType } from "../tool/type-token.js";
import { decodeCheckpoint, encodeCheckpoint } from "./checkpoint-codec.js";
import { type TypeCodec, TypeRegistry } from "./type-registry.js";
import { WireValues } from "./wire-value.js";

class Topic {
  constructor(readonly subject: string) {}
  shout(): string {
    return this.subject.toUpperCase();
  }
}
class Draft {
  constructor(
    readonly topic: Topic,
    readonly words: string[],
  ) {}
}
class Money {
  #cents: number;
  constructor(cents: number) {
    this.#cents = cents;
  }
  get cents(): number {
    return this.#cents;
  }
  toJSON() {
    return { cents: this.#cents };
  }
  static fromJSON(json: { cents: number }): Money {
    return new Money(json.cents);
  }
}
class Unknown {
  readonly x = 1;
}
const Verdict = domainType("Verdict", z.object({ ok: z.boolean(), note: z.string() }));

const writer = defineAgent({
  name: "Writer",
  description: "Drafts",
  actions: [
    { name: "draft", input: Topic, output: Draft, run: (topic: Topic) => new Draft(topic, []) },
    {
      name: "judge",
      input: Draft,
      output: Verdict,
      achievesGoal: { description: "judged" },
      run: () => undefined,
    },
  ],
});

const wire = (types: Parameters<typeof TypeRegistry.of>[1] = []) =>
  new WireValues(TypeRegistry.of([writer], types));
const roundTrip = (value: unknown, values = wire()) =>
  values.decode(JSON.parse(JSON.stringify(values.encode(value, "value"))), "value");

describe("WireValues", () => {
  it("restores instances of the agents' declared classes, nested, with their prototypes", () => {
    const back = roundTrip(new Draft(new Topic("tea"), ["a", "b"])) as Draft;
    expect(back).toBeInstanceOf(Draft);
    expect(back.topic).toBeInstanceOf(Topic);
    expect(back.topic.shout()).toBe("TEA");
    expect(back.words).toEqual(["a", "b"]);
  });

  it("restores domainType values tagged as their type", () => {
    const back = roundTrip(Verdict.create({ ok: true, note: "fine" }));
    expect(Verdict.is(back)).toBe(true);
    const blackboard = new Blackboard().add(back);
    expect(blackboard.last("Verdict")).toEqual({ ok: true, note: "fine" });
  });

  it("carries plain data, undefined, non-finite numbers, bigints, dates, maps, sets and errors", () => {
    const error = new TypeError("boom");
    const value = {
      text: "x",
      list: [1, null, undefined, Number.NaN, Number.POSITIVE_INFINITY],
      big: 12345678901234567890n,
      when: new Date("2026-01-02T00:00:00Z"),
      map: new Map([["k", new Topic("in a map")]]),
      set: new Set([1, 2]),
      error,
      $t: "looks like a tag",
    };
    const back = roundTrip(value) as typeof value;
    expect(back.text).toBe("x");
    expect(back.list).toEqual([1, null, undefined, Number.NaN, Number.POSITIVE_INFINITY]);
    expect(back.big).toBe(12345678901234567890n);
    expect(back.when).toEqual(value.when);
    expect(back.map.get("k")).toBeInstanceOf(Topic);
    expect(back.set).toEqual(new Set([1, 2]));
    expect(back.error).toBeInstanceOf(Error);
    expect([back.error.name, back.error.message]).toEqual(["TypeError", "boom"]);
    expect(back.$t).toBe("looks like a tag");
  });

  it("uses toJSON / static fromJSON of a class given in types (private fields survive)", () => {
    const back = roundTrip(new Money(250), wire([Money])) as Money;
    expect(back).toBeInstanceOf(Money);
    expect(back.cents).toBe(250);
  });

  it("uses a hand-written codec for a type it cannot build", () => {
    const url: TypeCodec<URL> = {
      name: "URL",
      is: (value): value is URL => value instanceof URL,
      toJSON: (value) => value.href,
      fromJSON: (json) => new URL(json as string),
    };
    const back = roundTrip({ home: new URL("https://example.org/a") }, wire([url])) as { home: URL };
    expect(back.home).toBeInstanceOf(URL);
    expect(back.home.pathname).toBe("/a");
  });

  it("refuses an object of an unknown class, naming its type and where it is", () => {
    const values = wire();
    const attempt = () => values.encode({ nested: [new Unknown()] }, "blackboard[2]");
    expect(attempt).toThrow(SerializationError);
    expect(attempt).toThrow(
      /^Cannot serialise blackboard\[2\]\.nested\[0\]: an object of type 'Unknown' is not a known type\. .*Known types: \[Draft, Topic, Verdict\]$/,
    );
    try {
      attempt();
    } catch (error) {
      expect((error as SerializationError).typeName).toBe("Unknown");
    }
  });

  it("refuses functions, naming where", () => {
    expect(() => wire().encode({ run: () => 1 }, "value")).toThrow(
      /value\.run: an object of type 'Function'/,
    );
  });

  it("keeps an object reached twice as one object, at any depth, in arrays, maps, sets and class fields", () => {
    const topic = new Topic("tea");
    const when = new Date("2026-01-02T00:00:00Z");
    const shared = { label: "shared", when };
    const value = {
      a: new Draft(topic, ["x"]),
      b: [topic, shared, [shared]],
      map: new Map<unknown, unknown>([[shared, topic]]),
      set: new Set([shared, topic]),
      when,
    };
    const back = roundTrip(value) as typeof value;
    expect(back.b[0]).toBe(back.a.topic);
    expect(back.b[0]).toBeInstanceOf(Topic);
    expect((back.b[2] as unknown[])[0]).toBe(back.b[1]);
    const [key, mapped] = [...back.map][0] ?? [];
    expect(key).toBe(back.b[1]);
    expect(mapped).toBe(back.a.topic);
    expect([...back.set]).toEqual([back.b[1], back.a.topic]);
    expect([...back.set][0]).toBe(back.b[1]);
    expect(back.when).toBe((back.b[1] as typeof shared).when);
    expect(back.when.toISOString()).toBe(when.toISOString());
  });

  it("round-trips cycles through plain objects, arrays, maps, sets and field-by-field classes", () => {
    const node: Record<string, unknown> = { name: "root" };
    const list: unknown[] = [node];
    node.self = node;
    node.list = list;
    list.push(list);
    const map = new Map<string, unknown>();
    map.set("me", map);
    node.map = map;
    const set = new Set<unknown>();
    set.add(set);
    node.set = set;
    const topic = new Topic("loop") as Topic & { back?: unknown };
    topic.back = { topic };
    node.topic = topic;
    const back = roundTrip(node) as typeof node & { list: unknown[]; map: Map<string, unknown> };
    expect(back.self).toBe(back);
    expect(back.list[0]).toBe(back);
    expect(back.list[1]).toBe(back.list);
    expect(back.map.get("me")).toBe(back.map);
    expect([...(back.set as Set<unknown>)][0]).toBe(back.set);
    const restored = back.topic as Topic & { back: { topic: unknown } };
    expect(restored).toBeInstanceOf(Topic);
    expect(restored.back.topic).toBe(restored);
    expect(restored.shout()).toBe("LOOP");
  });

  it("shares objects across the values of one writer/reader pair, read in the same order", () => {
    const values = wire();
    const topic = new Topic("shared");
    const writer = values.writer();
    const trees = JSON.parse(
      JSON.stringify([writer.write(topic, "first"), writer.write({ topic }, "second")]),
    );
    expect(trees[1]).toEqual({ topic: { $ref: 0 } });
    const reader = values.reader();
    const first = reader.read(trees[0], "first");
    const second = reader.read(trees[1], "second") as { topic: unknown };
    expect(second.topic).toBe(first);
    expect(() => values.reader().read({ topic: { $ref: 3 } }, "second")).toThrow(
      /^Cannot restore second\.topic: it refers to object #3, which is not restored yet/,
    );
  });

  it("keeps toJSON/fromJSON classes and codecs, shared by identity; a cycle through one is a clear error", () => {
    const url: TypeCodec<URL> = {
      name: "URL",
      is: (value): value is URL => value instanceof URL,
      toJSON: (value) => value.href,
      fromJSON: (json) => new URL(json as string),
    };
    const values = wire([Money, url]);
    const money = new Money(250);
    const home = new URL("https://example.org/a");
    const back = roundTrip({ money, again: [money], home, homes: [home] }, values) as {
      money: Money;
      again: Money[];
      home: URL;
      homes: URL[];
    };
    expect(back.money).toBeInstanceOf(Money);
    expect(back.money.cents).toBe(250);
    expect(back.again[0]).toBe(back.money);
    expect(back.home).toBeInstanceOf(URL);
    expect(back.homes[0]).toBe(back.home);

    class Wrapped {
      constructor(readonly inner: unknown) {}
      toJSON() {
        return { inner: this.inner };
      }
      static fromJSON(json: { inner: unknown }) {
        return new Wrapped(json.inner);
      }
    }
    const holder: { wrapped?: Wrapped } = {};
    holder.wrapped = new Wrapped(holder); // a cycle through a plain object is fine
    const restored = roundTrip(holder, wire([Wrapped])) as { wrapped: Wrapped };
    expect(restored.wrapped.inner).toBe(restored);
    const selfish: { wrapped?: Wrapped } = {};
    const wrapped = new Wrapped(selfish);
    selfish.wrapped = wrapped;
    const attempt = () => wire([Wrapped]).encode(wrapped, "blackboard[1]");
    expect(attempt).toThrow(SerializationError);
    expect(attempt).toThrow(
      /^Cannot serialise blackboard\[1\]\.toJSON\(\)\.inner\.wrapped: it refers back to an enclosing 'Wrapped', which is rebuilt from its JSON/,
    );
  });

  it("reads trees written before object graphs (no $ref, toJSON output under v)", () => {
    const legacy = {
      draft: { $t: "Draft", v: { topic: { $t: "Topic", v: { subject: "tea" } }, words: ["a"] } },
      money: { $t: "Money", v: { cents: 7 } },
    };
    const back = wire([Money]).decode(legacy, "the input") as { draft: Draft; money: Money };
    expect(back.draft.topic.shout()).toBe("TEA");
    expect(back.money).toBeInstanceOf(Money);
    expect(back.money.cents).toBe(7);
  });

  it("refuses to restore a type this side does not know, naming it", () => {
    const tree = new WireValues(TypeRegistry.of([], [Unknown])).encode(new Unknown(), "value");
    expect(() => wire().decode(tree, "blackboard[0]")).toThrow(
      /^Cannot restore blackboard\[0\]: no type named 'Unknown' is known here/,
    );
  });

  it("rejects two different types with one name", () => {
    const Other = class Topic {};
    expect(() => TypeRegistry.of([writer], [Other])).toThrow(ConfigurationError);
  });
});

describe("checkpoint codec", () => {
  it("keeps identity between blackboard objects, bindings, hidden objects and the result", () => {
    const topic = new Topic("tea");
    const draft = new Draft(topic, ["x"]);
    const blackboard = new Blackboard().bind("it", topic).add(draft).add("loose").hide(draft);
    blackboard.setCondition("ready", true).bindProtected("pinned", { plain: true });
    const checkpoint = {
      ...AgentProcess.launch({}).process.checkpoint(),
      blackboard: blackboard.snapshot(),
      result: draft,
    };
    const back = decodeCheckpoint(encodeCheckpoint(checkpoint, wire()), wire());
    const restored = Blackboard.fromSnapshot(back.blackboard);
    expect(restored.get("it")).toBe(back.blackboard.objects[0]);
    expect(back.result).toBe(back.blackboard.objects[1]);
    expect(restored.has(Draft)).toBe(false);
    expect(restored.objects).toEqual([topic, "loose", { plain: true }]);
    expect(restored.getCondition("ready")).toBe(true);
    expect(restored.clear().get("pinned")).toEqual({ plain: true });
    expect(back.id).toBe(checkpoint.id);
  });

  it("keeps objects nested inside blackboard objects shared with other entries, bindings and the result", () => {
    const topic = new Topic("tea");
    const words = ["x"];
    const draft = new Draft(topic, words);
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const blackboard = new Blackboard().add(draft).add({ again: topic, words }).bind("cycle", cyclic);
    const checkpoint = {
      ...AgentProcess.launch({}).process.checkpoint(),
      blackboard: blackboard.snapshot(),
      result: { draft, topic, list: [words] },
    };
    const text = encodeCheckpoint(checkpoint, wire());
    expect(JSON.parse(text).format).toBe(2);
    const back = decodeCheckpoint(text, wire());
    const [restoredDraft, other, restoredCycle] = back.blackboard.objects as [
      Draft,
      { again: Topic; words: string[] },
      Record<string, unknown>,
    ];
    expect(other.again).toBe(restoredDraft.topic);
    expect(other.words).toBe(restoredDraft.words);
    const result = back.result as { draft: Draft; topic: Topic; list: string[][] };
    expect(result.draft).toBe(restoredDraft);
    expect(result.topic).toBe(restoredDraft.topic);
    expect(result.list[0]).toBe(restoredDraft.words);
    expect(restoredCycle.self).toBe(restoredCycle);
    expect(Blackboard.fromSnapshot(back.blackboard).get("cycle")).toBe(restoredCycle);
  });

  it("reads a format-1 checkpoint (written before object graphs) and refuses a newer format by name", () => {
    const v1 = JSON.stringify({
      ...AgentProcess.launch({}).process.checkpoint(),
      id: "old-1",
      result: { $ref: 1 },
      failure: { $t: "undefined" },
      blackboard: {
        objects: [
          { $t: "Topic", v: { subject: "tea" } },
          { $t: "Draft", v: { topic: { $t: "Topic", v: { subject: "tea" } }, words: [] } },
        ],
        hidden: [0],
        bindings: [["it", { $ref: 0 }]],
        protectedNames: [],
        conditions: [],
      },
    });
    const back = decodeCheckpoint(v1, wire());
    expect(back.id).toBe("old-1");
    expect(back.result).toBe(back.blackboard.objects[1]);
    expect(back.result).toBeInstanceOf(Draft);
    expect(back.blackboard.bindings[0]?.[1]).toBe(back.blackboard.objects[0]);
    expect(back.blackboard.hidden).toEqual([back.blackboard.objects[0]]);
    expect((back.blackboard.objects[0] as Topic).shout()).toBe("TEA");
    const v3 = JSON.stringify({ ...JSON.parse(v1), format: 3 });
    expect(() => decodeCheckpoint(v3, wire())).toThrow(
      "Cannot read the checkpoint of process old-1: it is in format 3, written by a newer embabel-ts; this one reads formats 1 to 2. Upgrade this worker or caller.",
    );
  });
});
