import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AmbientProcess } from "./ambient-process.js";
import { BlackboardSink } from "./blackboard-sink.js";

function processWithBlackboard(id: string) {
  const added: unknown[] = [];
  return { process: { id, blackboard: { add: (value: unknown) => added.push(value) } }, added };
}

describe("BlackboardSink", () => {
  it("adds to the current process's blackboard", () => {
    const { process, added } = processWithBlackboard("p1");
    AmbientProcess.run(process, () => new BlackboardSink().accept("artifact"));
    expect(added).toEqual(["artifact"]);
  });

  it("looks the process up at each artifact, not at construction", () => {
    const sink = new BlackboardSink();
    const one = processWithBlackboard("one");
    const two = processWithBlackboard("two");
    AmbientProcess.run(one.process, () => sink.accept(1));
    AmbientProcess.run(two.process, () => sink.accept(2));
    expect(one.added).toEqual([1]);
    expect(two.added).toEqual([2]);
  });

  it("throws 'No AgentProcess available for BlackboardSink' outside a process", () => {
    let caught: unknown;
    try {
      new BlackboardSink().accept("x");
    } catch (error) {
      caught = error;
    }
    expect(ConfigurationError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toContain("No AgentProcess available for BlackboardSink");
  });

  it("writes to an explicit blackboard, even outside a process", () => {
    const added: unknown[] = [];
    new BlackboardSink({ add: (value) => added.push(value) }).accept("x");
    expect(added).toEqual(["x"]);
  });
});
