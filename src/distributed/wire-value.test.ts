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

  it("refuses functions and cycles", () => {
    expect(() => wire().encode({ run: () => 1 }, "value")).toThrow(
      /value\.run: an object of type 'Function'/,
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => wire().encode(cyclic, "value")).toThrow(/refers back to itself/);
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
});
