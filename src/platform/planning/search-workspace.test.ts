import { describe, expect, it } from "vitest";
import { SearchWorkspace } from "./search-workspace.js";

describe("SearchWorkspace", () => {
  it("hands out the shared workspace again once released", () => {
    const first = SearchWorkspace.acquire(16, 4, []);
    first.release();
    const second = SearchWorkspace.acquire(16, 4, []);
    second.release();
    expect(second).toBe(first);
  });

  it("hands out a separate workspace while the shared one is in use", () => {
    const shared = SearchWorkspace.acquire(16, 4, []);
    const other = SearchWorkspace.acquire(16, 4, []);
    expect(other).not.toBe(shared);
    other.release();
    shared.release();
    const again = SearchWorkspace.acquire(16, 4, []);
    again.release();
    expect(again).toBe(shared);
  });

  it("starts each search empty, at the root state it is given", () => {
    const workspace = SearchWorkspace.acquire(16, 40, [3, 35]);
    workspace.nodes.add(-1, -1, 7, 9, 0, 0, 1);
    workspace.states.insert(0);
    workspace.open.push(0);
    workspace.release();
    const again = SearchWorkspace.acquire(16, 40, [5]);
    expect(again.nodes.size).toBe(0);
    expect(again.open.size).toBe(0);
    expect(again.states.find(7, 9)).toBe(-1);
    expect([3, 5, 35].map((condition) => again.state.has(condition))).toEqual([false, true, false]);
    again.release();
  });

  it("gives back the memory of a search that grew past the kept size", () => {
    const workspace = SearchWorkspace.acquire(1 << 18, 4, []);
    expect(workspace.nodes.capacity).toBeGreaterThanOrEqual(1 << 18);
    workspace.release();
    expect(workspace.nodes.capacity).toBeLessThanOrEqual(4096);
  });
});
