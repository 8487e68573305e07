import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemoryMcpNonceStore } from "./mcp-nonce-store.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("InMemoryMcpNonceStore", () => {
  it("grants the first claim of a nonce only", async () => {
    const store = new InMemoryMcpNonceStore();
    expect(await store.claim("a", 60_000)).toBe(true);
    expect(await store.claim("a", 60_000)).toBe(false);
    expect(await store.claim("b", 60_000)).toBe(true);
  });

  it("forgets a claim once its time is over", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
    const store = new InMemoryMcpNonceStore();
    expect(await store.claim("a", 1_000)).toBe(true);
    vi.setSystemTime(1_000_999);
    expect(await store.claim("a", 1_000)).toBe(false);
    vi.setSystemTime(1_001_000);
    expect(await store.claim("a", 1_000)).toBe(true);
  });

  it("keeps at most maxNonces claims, forgetting the oldest", async () => {
    const store = new InMemoryMcpNonceStore(2);
    for (const nonce of ["a", "b", "c"]) expect(await store.claim(nonce, 60_000)).toBe(true);
    expect(await store.claim("c", 60_000)).toBe(false);
    expect(await store.claim("b", 60_000)).toBe(false);
    // "a" was the oldest and is forgotten (so is "b" now, "c" stays).
    expect(await store.claim("a", 60_000)).toBe(true);
  });

  it("refuses a size that is not a whole number, 1 or more", () => {
    expect(() => new InMemoryMcpNonceStore(0)).toThrow(/maxNonces must be a whole number, 1 or more; got 0/);
  });
});
