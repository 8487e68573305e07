import { describe, expect, it } from "vitest";
import type { ApprovalCheck } from "../../tool/approval-authority.js";
import { type PendingApproval, ServedApprovals, servedAuthority } from "./served-approvals.js";

const check = (callKey: string, extra: Partial<ApprovalCheck> = {}): ApprovalCheck => ({
  callKey,
  toolName: "pay",
  value: { cents: 1 },
  input: '{"cents":1}',
  digest: "d1",
  message: "Pay?",
  inputSchema: { type: "object" },
  ...extra,
});
const rerun = async () => ({ content: [] });

describe("ServedApprovals", () => {
  it("an answer is used once, and only by the call with the same tool name and digest", () => {
    const store = new ServedApprovals();
    const entry = store.open(check("k"), rerun);
    store.answer(entry, { approved: true });
    expect(store.take(check("k", { digest: "other" }))).toBeUndefined();
    // The mismatch used it up: a second look finds nothing either.
    expect(store.take(check("k"))).toBeUndefined();

    store.answer(store.open(check("k"), rerun), { approved: true });
    expect(store.take(check("k", { toolName: "refund" }))).toBeUndefined();
    store.answer(store.open(check("k"), rerun), { approved: false, reason: "no" });
    expect(store.take(check("k"))).toEqual({ approved: false, reason: "no" });
    expect(store.take(check("k"))).toBeUndefined();
  });

  it("a request asked again while its call is served keeps its id; a settled one is gone", () => {
    const store = new ServedApprovals();
    const first = store.open(check("k"), rerun);
    store.answer(first, { approved: true, input: { cents: -1 } });
    const again = store.open(check("k", { problem: "cents too small" }), rerun);
    expect(again.id).toBe(first.id);
    expect(again.problem).toBe("cents too small");
    store.settle(first);
    expect(store.get(first.id)).toBe(again);

    store.answer(again, { approved: true });
    store.settle(again);
    expect(store.get(again.id)).toBeUndefined();
    expect(store.take(check("k"))).toBeUndefined();
  });

  it("past its timeoutMs a request is answered 'timed out', whatever was answered", () => {
    const store = new ServedApprovals();
    const entry = store.open(check("k", { timeoutMs: 100 }), rerun, 1_000);
    expect(store.get(entry.id, 2_000)).toBe(entry);
    expect(store.answer(entry, { approved: true }, 1_101)).toEqual({ approved: false, reason: "timed out" });
  });

  it("keeps at most 1000 open requests, dropping the oldest", () => {
    const store = new ServedApprovals();
    const first = store.open(check("k0"), rerun);
    for (let n = 1; n <= 1_000; n++) store.open(check(`k${n}`), rerun);
    expect(store.get(first.id)).toBeUndefined();
  });

  it("the authority answers from the store, else asks the client, else opens a request", async () => {
    const store = new ServedApprovals();
    const opened: PendingApproval[] = [];
    const client = servedAuthority(
      store,
      async () => ({ approved: false, reason: "by form" }),
      rerun,
      opened,
    );
    expect(await client.decide(check("a"))).toEqual({ approved: false, reason: "by form" });
    const nobody = servedAuthority(store, async () => undefined, rerun, opened);
    expect(await nobody.decide(check("b"))).toBe("ask");
    expect(opened).toHaveLength(1);
    expect(await nobody.decide(check("c", { peek: true }))).toBe("ask");
    expect(opened).toHaveLength(1);
  });
});
