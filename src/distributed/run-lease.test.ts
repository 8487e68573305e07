import type { Job } from "bullmq";
import { describe, expect, it } from "vitest";
import { RunLease } from "./run-lease.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job whose extendLock answers with `answer()` and records the tokens it was given. */
function fakeJob(answer: () => Promise<number>) {
  const tokens: string[] = [];
  const job = {
    extendLock: (token: string) => {
      tokens.push(token);
      return answer();
    },
  } as unknown as Job;
  return { job, tokens };
}

describe("RunLease", () => {
  it("stays held while renewals with the run's token succeed, and stops renewing when ended", async () => {
    const { job, tokens } = fakeJob(async () => 1);
    const lost: string[] = [];
    const lease = RunLease.start(job, "token-1", {
      lockDurationMs: 100,
      startedAt: Date.now(),
      onLost: (reason) => lost.push(reason),
    });
    await wait(300);
    expect(lease.held).toBe(true);
    expect(lost).toEqual([]);
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    expect(new Set(tokens)).toEqual(new Set(["token-1"]));
    lease.end();
    const renewals = tokens.length;
    await wait(150);
    expect(tokens.length).toBe(renewals);
  });

  it("is lost at once when Redis says the lock is not the run's", async () => {
    const { job } = fakeJob(async () => 0);
    const lost: string[] = [];
    const lease = RunLease.start(job, "t", {
      lockDurationMs: 1_000,
      startedAt: Date.now(),
      onLost: (r) => lost.push(r),
    });
    await wait(20);
    expect(lease.held).toBe(false);
    expect(lost).toEqual([
      "its lock in Redis is gone or held by another worker (Redis lost it, or the run was taken over)",
    ]);
  });

  it("is lost when no renewal reaches Redis within the lock duration (Redis unreachable or hanging)", async () => {
    const { job } = fakeJob(() => new Promise<number>(() => {}));
    const lost: string[] = [];
    const startedAt = Date.now();
    const lease = RunLease.start(job, "t", { lockDurationMs: 150, startedAt, onLost: (r) => lost.push(r) });
    await wait(100);
    expect(lease.held).toBe(true);
    await wait(120);
    expect(lease.held).toBe(false);
    expect(lost).toEqual(["no lock renewal reached Redis for 150 ms (Redis unreachable)"]);
    expect(lease.lostReason).toBe(lost[0]);
  });

  it("counts the lease from when a renewal was sent, not when it was answered", async () => {
    let calls = 0;
    // The first renewal is answered late (after 250 ms); later ones hang.
    const { job } = fakeJob(() => (calls++ === 0 ? wait(250).then(() => 1) : new Promise<number>(() => {})));
    const lost: number[] = [];
    const startedAt = Date.now();
    RunLease.start(job, "t", {
      lockDurationMs: 200,
      startedAt,
      onLost: () => lost.push(Date.now() - startedAt),
    });
    await wait(700);
    expect(lost).toHaveLength(1);
    // From the answer it would be 650 ms.
    expect(lost[0]).toBeLessThan(550);
  });
});
