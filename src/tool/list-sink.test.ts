import { describe, expect, it } from "vitest";
import { ListSink } from "./list-sink.js";

describe("ListSink", () => {
  it("collects artifacts in arrival order", () => {
    const sink = new ListSink<string>();
    sink.accept("a");
    sink.accept("b");
    expect(sink.items()).toEqual(["a", "b"]);
  });

  it("returns a snapshot that does not grow later", () => {
    const sink = new ListSink();
    sink.accept(1);
    const snapshot = sink.items();
    sink.accept(2);
    expect(snapshot).toEqual([1]);
    expect(Object.isFrozen(snapshot)).toBe(true);
  });

  it("appends to a target list when given one", () => {
    const target: unknown[] = ["existing"];
    new ListSink(target).accept("new");
    expect(target).toEqual(["existing", "new"]);
  });
});
