import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CheckpointError } from "../errors/checkpoint-error.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { AgentProcess } from "../platform/agent-process.js";
import { defineAgent } from "../platform/define-agent.js";
import { decodeCheckpoint, encodeCheckpoint } from "./checkpoint-codec.js";
import { TypeRegistry } from "./type-registry.js";
import { WireValues } from "./wire-value.js";

class Req {
  constructor(readonly text: string) {}
}
class Args {
  constructor(readonly parsed: Record<string, unknown>) {}
}
class Out {
  constructor(readonly o: { args: unknown; n: number }) {}
}

/** Parses a model's JSON (with an own `__proto__` key) onto the blackboard, then nests it in the result. */
const parser = defineAgent({
  name: "Parser",
  description: "Parses JSON",
  actions: [
    { name: "parse", input: Req, output: Args, run: (request: Req) => new Args(JSON.parse(request.text)) },
    {
      name: "use",
      input: Args,
      output: Out,
      achievesGoal: { description: "used" },
      run: (args: Args) => new Out({ args: args.parsed, n: 1 }),
    },
  ],
});
const wire = () => new WireValues(TypeRegistry.of([parser]));

/** A finished process's checkpoint as stored text, with `edit` applied to its JSON. */
function storedCheckpoint(edit: (json: Record<string, unknown>) => void = () => {}): string {
  const json = JSON.parse(encodeCheckpoint(AgentProcess.launch({}).process.checkpoint(), wire()));
  json.id = "inside-id";
  edit(json);
  return JSON.stringify(json);
}

const readError = (text: string, id = "job-9"): CheckpointError => {
  try {
    decodeCheckpoint(text, wire(), id);
  } catch (error) {
    if (CheckpointError.isInstance(error)) return error;
    throw new Error(`not a CheckpointError: ${String(error)}`);
  }
  throw new Error("decoded without an error");
};

describe("encodeCheckpoint / decodeCheckpoint", () => {
  it("round-trips an own __proto__ key from JSON.parse exactly, keeping every $ref on its object", async () => {
    const platform = AgentPlatform.create({ models: {} });
    platform.deploy(parser);
    const process = await platform.runAgent(parser, new Req('{"__proto__":{"isAdmin":true},"k":2}'));
    const back = decodeCheckpoint(encodeCheckpoint(process.checkpoint(), wire()), wire());
    expect(back.result).toBeInstanceOf(Out);
    const args = (back.result as Out).o.args as Record<string, unknown>;
    expect(Object.keys(args)).toEqual(["__proto__", "k"]);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(args, "__proto__")?.value).toEqual({ isAdmin: true });
    expect((args as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    const restoredArgs = back.blackboard.objects.find((object) => object instanceof Args) as Args;
    expect((back.result as Out).o.args).toBe(restoredArgs.parsed);
  });

  it("keeps later references on their own objects after a __proto__ key (wire level)", () => {
    const account = { owner: "alice", role: "user" };
    const admin = { owner: "root", role: "admin" };
    const values = [JSON.parse('{"__proto__":{"x":1},"q":"hi"}'), account, admin, { current: account }];
    const back = wire().decode(JSON.parse(JSON.stringify(wire().encode(values, "bb"))), "bb") as unknown[];
    const [, restoredAccount, , holder] = back as [unknown, object, object, { current: object }];
    expect(holder.current).toBe(restoredAccount);
    expect(holder.current).toEqual({ owner: "alice", role: "user" });
  });

  it("keeps an own constructor field on an instance of a declared class", () => {
    const args = new Args(JSON.parse('{"constructor":{"name":"Evil"},"plain":"x"}'));
    Object.defineProperty(args, "constructor", { value: "own", enumerable: true });
    const back = wire().decode(JSON.parse(JSON.stringify(wire().encode(args, "args"))), "args") as Args;
    expect(back).toBeInstanceOf(Args);
    expect(Object.getOwnPropertyDescriptor(back, "constructor")?.value).toBe("own");
    expect(back.parsed).toEqual(JSON.parse('{"constructor":{"name":"Evil"},"plain":"x"}'));
  });

  it("takes the process id it is given (the job's) over the one written inside", () => {
    expect(decodeCheckpoint(storedCheckpoint(), wire(), "job-1").id).toBe("job-1");
    expect(decodeCheckpoint(storedCheckpoint(), wire()).id).toBe("inside-id");
  });

  it.each([
    ["not JSON", "{nope", /^it is not JSON \(/],
    ["a JSON array", "[1,2]", /^it is not a JSON object$/],
    ["only a format", '{"format":2}', /^the field 'status' is missing or malformed/],
    [
      "no blackboard values",
      storedCheckpoint((json) => {
        delete (json.blackboard as Record<string, unknown>).values;
      }),
      /^the field 'blackboard\.values' is missing or malformed/,
    ],
    [
      "an error without name and message",
      storedCheckpoint((json) => {
        json.failure = { $t: "Error" };
      }),
      /^Cannot restore the failure: expected an object of fields, found undefined/,
    ],
    [
      "a bigint that is not one",
      storedCheckpoint((json) => {
        json.result = { $t: "BigInt", v: "1e5" };
      }),
      /^Cannot restore the result: "1e5" is not a BigInt/,
    ],
    [
      "a 20,000-deep array",
      storedCheckpoint((json) => {
        json.result = "DEEP";
      }).replace('"DEEP"', `${"[".repeat(20_000)}${"]".repeat(20_000)}`),
      /it nests (deeper than 1000 levels|too deeply to read here)/,
    ],
    [
      "a negative $ref",
      storedCheckpoint((json) => {
        json.result = { $ref: -1 };
      }),
      /^Cannot restore the result: its \$ref -1 is not an object number/,
    ],
    [
      "a dangling $ref",
      storedCheckpoint((json) => {
        json.result = { $ref: 99 };
      }),
      /^Cannot restore the result: it refers to object #99, which is not restored yet/,
    ],
    [
      "a hidden index off the blackboard",
      storedCheckpoint((json) => {
        (json.blackboard as Record<string, unknown>).hidden = [3];
      }),
      /^hidden object #3 is not on the blackboard/,
    ],
    [
      "an unknown status",
      storedCheckpoint((json) => {
        json.status = "exploded";
      }),
      /^the field 'status' is missing or malformed \("exploded"\)/,
    ],
  ])("refuses %s with a CheckpointError naming the process and the problem", (_case, text, problem) => {
    const error = readError(text);
    expect(error.processId).toBe("job-9");
    expect(error.message.startsWith("Cannot read the checkpoint of process job-9: ")).toBe(true);
    expect(error.problem).toMatch(problem);
  });

  it("refuses a newer format by name", () => {
    const error = readError(
      storedCheckpoint((json) => {
        json.format = 3;
      }),
    );
    expect(error.problem).toBe(
      "it is in format 3, written by a newer embabel-ts; this one reads formats 1 to 2. Upgrade this worker or caller.",
    );
  });

  it("round-trips any JSON with __proto__, constructor, $t and $ref keys, shared objects kept shared", () => {
    const key = fc.constantFrom("__proto__", "constructor", "$t", "$ref", "v", "toString", "a");
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, json, (first, second) => {
        const parsed = JSON.parse(JSON.stringify({ first, second }));
        const values = [parsed.first, parsed.second, parsed.first];
        const back = wire().decode(JSON.parse(JSON.stringify(wire().encode(values, "v"))), "v") as unknown[];
        expect(JSON.stringify(back)).toBe(JSON.stringify(values));
        if (typeof parsed.first === "object" && parsed.first !== null) expect(back[2]).toBe(back[0]);
      }),
      { numRuns: 300 },
    );
  });
});
