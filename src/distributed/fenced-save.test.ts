import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasRedisServer, startRedis, type TestRedis } from "../../test/support/redis-server.js";
import { saveIfLockHeld } from "./fenced-save.js";

// The fenced checkpoint write against a real redis-server: it writes only while
// the job's lock holds this worker's token, and a waiting run's listing goes in
// the same step (so a worker that lost the run writes neither).
describe.skipIf(!hasRedisServer)("saveIfLockHeld", () => {
  let server: TestRedis;
  let redis: Redis;
  const fence = { lockKey: "bull:q:job-1:lock", token: "mine" };

  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  it("writes the checkpoint, and adds to the waiting set, only while the lock is this worker's", async () => {
    await redis.set(fence.lockKey, "theirs");
    const waiting = { set: "embabel:q:waiting", member: "p-1" };
    expect(await saveIfLockHeld(redis, fence, "embabel:q:checkpoint:p-1", "stale", 0, waiting)).toBe(false);
    expect(await redis.get("embabel:q:checkpoint:p-1")).toBeNull();
    expect(await redis.smembers(waiting.set)).toEqual([]);

    await redis.set(fence.lockKey, "mine");
    expect(await saveIfLockHeld(redis, fence, "embabel:q:checkpoint:p-1", "fresh", 0, waiting)).toBe(true);
    expect(await redis.get("embabel:q:checkpoint:p-1")).toBe("fresh");
    expect(await redis.ttl("embabel:q:checkpoint:p-1")).toBe(-1);
    expect(await redis.smembers(waiting.set)).toEqual(["p-1"]);
  });

  it("expires a finished checkpoint after its ttl, and touches no set unless asked", async () => {
    await redis.set(fence.lockKey, "mine");
    expect(await saveIfLockHeld(redis, fence, "embabel:q:checkpoint:p-2", "done", 60)).toBe(true);
    expect(await redis.get("embabel:q:checkpoint:p-2")).toBe("done");
    const ttl = await redis.ttl("embabel:q:checkpoint:p-2");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    expect(await redis.sismember("embabel:q:waiting", "p-2")).toBe(0);
  });
});
