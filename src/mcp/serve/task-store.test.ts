import { describe, expect, it } from "vitest";
import { InMemoryMcpTaskStore, isExpired, type McpTask } from "./task-store.js";

function task(taskId: string, ttlMs = 60_000, createdAt = new Date()): McpTask {
  const at = createdAt.toISOString();
  return {
    taskId,
    status: "working",
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs,
    pollIntervalMs: 1000,
    owner: "",
  };
}

describe("InMemoryMcpTaskStore", () => {
  it("finds a created task at once, and applies an update", async () => {
    const store = new InMemoryMcpTaskStore();
    await store.create(task("a"));
    expect((await store.get("a"))?.status).toBe("working");
    const updated = await store.update("a", (current) => ({ ...current, status: "completed" }));
    expect(updated?.status).toBe("completed");
    expect((await store.get("a"))?.status).toBe("completed");
  });

  it("leaves a task as it is when the change returns undefined, and answers undefined for an unknown id", async () => {
    const store = new InMemoryMcpTaskStore();
    await store.create(task("a"));
    expect((await store.update("a", () => undefined))?.status).toBe("working");
    expect(await store.update("missing", (current) => current)).toBeUndefined();
    expect(await store.get("missing")).toBeUndefined();
  });

  it("forgets a task past its ttlMs", async () => {
    const store = new InMemoryMcpTaskStore();
    const old = task("old", 1_000, new Date(Date.now() - 2_000));
    expect(isExpired(old)).toBe(true);
    await store.create(old);
    expect(await store.get("old")).toBeUndefined();
    expect(await store.update("old", (current) => current)).toBeUndefined();
  });

  it("keeps at most maxTasks, forgetting the oldest", async () => {
    const store = new InMemoryMcpTaskStore(2);
    for (const id of ["a", "b", "c"]) await store.create(task(id));
    expect(await store.get("a")).toBeUndefined();
    expect((await store.get("c"))?.taskId).toBe("c");
    await store.delete("c");
    expect(await store.get("c")).toBeUndefined();
  });
});
