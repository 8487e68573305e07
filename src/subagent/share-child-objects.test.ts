import { describe, expect, it } from "vitest";
import { Blackboard } from "../platform/blackboard.js";
import { shareChildObjects } from "./share-child-objects.js";

describe("shareChildObjects", () => {
  it("copies what the child added, in order, with the names it bound, and returns it", () => {
    const parent = new Blackboard();
    const before = { step: "parent's" };
    parent.add(before);
    const child = parent.spawn();
    const first = { step: 1 };
    const named = { step: 2 };
    child.add(first);
    child.bind("shortlist", named);
    expect(shareChildObjects(child, parent, undefined)).toEqual([first, named]);
    expect(parent.objects).toEqual([before, first, named]);
    expect(parent.get("shortlist")).toBe(named);
  });

  it("leaves the input, and the `it` binding, off the parent", () => {
    const parent = new Blackboard();
    const child = parent.spawn();
    const input = { composers: ["Bach"] };
    child.bind("it", input);
    child.bind("worksToFind", input);
    const result = { titles: ["Bach: Mass in B minor"] };
    child.add(result);
    expect(shareChildObjects(child, parent, input)).toEqual([result]);
    expect(parent.objects).toEqual([result]);
    expect(parent.get("it")).toBeUndefined();
    expect(parent.get("worksToFind")).toBeUndefined();
  });

  it("copies nothing when the child added nothing", () => {
    const parent = new Blackboard();
    parent.add({ kept: true });
    expect(shareChildObjects(parent.spawn(), parent, undefined)).toEqual([]);
    expect(parent.objects).toEqual([{ kept: true }]);
  });
});
