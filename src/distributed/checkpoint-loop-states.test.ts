// The kept states of a stopped tool loop (chaining bindings, a playbook's
// artifacts) cross the wire like blackboard objects: registered classes come
// back as themselves, one object reached twice stays one, and an unregistered
// class is an error naming where it is.
import { describe, expect, it } from "vitest";
import { CheckpointError } from "../errors/checkpoint-error.js";
import { SerializationError } from "../errors/serialization-error.js";
import type { SuspendedLoop, WaitJournalEntry } from "../loop/loop-waits.js";
import { AgentProcess } from "../platform/agent-process.js";
import type { ProcessCheckpoint } from "../platform/process-checkpoint.js";
import { decodeCheckpoint, encodeCheckpoint } from "./checkpoint-codec.js";
import { TypeRegistry } from "./type-registry.js";
import { WireValues } from "./wire-value.js";

class Account {
  constructor(readonly id: string) {}
  label(): string {
    return `account ${this.id}`;
  }
}
class Unregistered {
  readonly n = 1;
}

const wire = (types: (typeof Account)[] = [Account]) => new WireValues(TypeRegistry.of([], types));

function suspended(states: Record<string, unknown> | undefined): SuspendedLoop {
  return {
    loopId: "loop-1",
    prompt: [],
    content: [],
    iteration: 2,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    nudged: false,
    settled: [],
    toolNames: ["get_account", "issue_refund"],
    ...(states === undefined ? {} : { states }),
    resumeSlot: 1,
  };
}

function checkpointWith(journal: (WaitJournalEntry | null)[]): ProcessCheckpoint {
  return {
    ...AgentProcess.launch({}).process.checkpoint(),
    waiting: { journal, open: [], answers: [], nextId: 2 },
  };
}

describe("a stopped loop's states in a checkpoint", () => {
  it("come back with their classes, and an object reached twice as one", () => {
    const account = new Account("A7");
    const states = {
      "tool-chaining": { bound: [["Account", account]], discovered: account, offered: ["label"] },
      playbook: { calledToolNames: ["lookup"], artifacts: [account, { plain: true }], iterationCount: 1 },
    };
    const text = encodeCheckpoint(
      checkpointWith([null, { kind: "loop-suspended", loop: suspended(states) }, { kind: "awaitable" }]),
      wire(),
    );
    // Plain JSON on the wire.
    expect(JSON.parse(text).waiting.journal[1].loop.states["tool-chaining"].bound[0][1]).toEqual({
      $t: "Account",
      v: { id: "A7" },
    });
    const journal = decodeCheckpoint(text, wire()).waiting?.journal ?? [];
    expect(journal[0]).toBeNull();
    expect(journal[2]).toEqual({ kind: "awaitable" });
    const loop = (journal[1] as Extract<WaitJournalEntry, { kind: "loop-suspended" }>).loop;
    const chaining = loop.states?.["tool-chaining"] as { bound: [string, Account][]; discovered: Account };
    expect(chaining.bound[0]?.[1]).toBeInstanceOf(Account);
    expect(chaining.bound[0]?.[1].label()).toBe("account A7");
    expect(chaining.discovered).toBe(chaining.bound[0]?.[1]);
    const playbook = loop.states?.playbook as { artifacts: unknown[] };
    expect(playbook.artifacts).toEqual([chaining.discovered, { plain: true }]);
    expect(loop.toolNames).toEqual(["get_account", "issue_refund"]);
    expect(loop.resumeSlot).toBe(1);
  });

  it("a loop without states, and a checkpoint without waits, are written as before", () => {
    const plain = checkpointWith([{ kind: "loop-suspended", loop: suspended(undefined) }]);
    const decoded = decodeCheckpoint(encodeCheckpoint(plain, wire()), wire());
    expect(decoded.waiting).toEqual(plain.waiting);
    const none = AgentProcess.launch({}).process.checkpoint();
    expect(decodeCheckpoint(encodeCheckpoint(none, wire()), wire()).waiting).toEqual(none.waiting);
  });

  it("an unregistered class in a state is a SerializationError naming the state and the type", () => {
    const states = { playbook: { calledToolNames: [], artifacts: [new Unregistered()], iterationCount: 1 } };
    const checkpoint = checkpointWith([{ kind: "loop-suspended", loop: suspended(states) }]);
    expect(() => encodeCheckpoint(checkpoint, wire())).toThrow(SerializationError);
    expect(() => encodeCheckpoint(checkpoint, wire())).toThrow(
      /waiting loop #0 state\.playbook\.artifacts\[0\].*Unregistered/,
    );
  });

  it("a state of a class this reader does not know is a CheckpointError naming the type", () => {
    const states = { "tool-chaining": { bound: [["Account", new Account("A7")]], offered: [] } };
    const text = encodeCheckpoint(
      checkpointWith([{ kind: "loop-suspended", loop: suspended(states) }]),
      wire(),
    );
    expect(() => decodeCheckpoint(text, wire([]), "job-1")).toThrow(CheckpointError);
    expect(() => decodeCheckpoint(text, wire([]), "job-1")).toThrow(/no type named 'Account'/);
  });
});
