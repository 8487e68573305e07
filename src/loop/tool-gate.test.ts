import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApprovalUnavailableError } from "../errors/approval-unavailable-error.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ApprovalAnswer, ApprovalCheck, ApprovalQuestion } from "../tool/approval-authority.js";
import { Tool } from "../tool/tool.js";
import type { ToolApproval } from "../tool/tool-approval.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { approvalCallbackAuthority } from "./approval-callback-authority.js";
import { gateToolCall, inputDigest } from "./tool-gate.js";
import { runToolLoop } from "./tool-loop.js";

const PayInput = z.object({ to: z.string(), cents: z.number().int().max(5000).default(900) });
type Pay = z.output<typeof PayInput>;

function pay(runs: Pay[], approval: ToolApproval<Pay> = {}) {
  return Tool.requireApproval(
    Tool.fromFunction("pay", "Pays", PayInput, z.string(), (input) => {
      runs.push(input);
      return "paid";
    }),
    approval,
  );
}

const context = ToolCallContext.EMPTY;

function call(tool: Tool, args: unknown, callKey = "loop/1.0") {
  return { tool, toolName: tool.definition.name, input: JSON.stringify(args), callKey };
}

function answering(...answers: (ApprovalAnswer | ((question: ApprovalQuestion) => ApprovalAnswer))[]) {
  const asked: ApprovalQuestion[] = [];
  const approvals = approvalCallbackAuthority((question) => {
    asked.push(question);
    const next = answers.shift();
    if (next === undefined) throw new Error("asked too often");
    return typeof next === "function" ? next(question) : next;
  });
  return { asked, approvals };
}

describe("gateToolCall", () => {
  it("runs an approved call once with the validated input; the callback saw the zod output", async () => {
    const runs: Pay[] = [];
    const { asked, approvals } = answering({ approved: true });
    const outcome = await gateToolCall(call(pay(runs), { to: "ann" }), { context, approvals });
    expect(outcome).toMatchObject({ kind: "ran", input: '{"to":"ann"}', result: { content: "paid" } });
    expect(runs).toEqual([{ to: "ann", cents: 900 }]);
    expect(asked).toEqual([
      {
        toolName: "pay",
        input: { to: "ann", cents: 900 },
        message: "Allow pay to run with these arguments?",
      },
    ]);
  });

  it("refuses a denied call in-band, and the tool never runs", async () => {
    const runs: Pay[] = [];
    const { approvals } = answering({ approved: false, reason: "no" });
    const outcome = await gateToolCall(call(pay(runs), { to: "ann", cents: 5 }), { context, approvals });
    expect(outcome).toEqual({
      kind: "refused",
      message: "The user denied this call: no",
      value: { to: "ann", cents: 5 },
    });
    expect(runs).toEqual([]);
  });

  it("refuses bad arguments before asking anyone", async () => {
    const runs: Pay[] = [];
    const { asked, approvals } = answering();
    const outcome = await gateToolCall(call(pay(runs), { to: "ann", cents: 9_999 }), { context, approvals });
    expect(outcome).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/Invalid arguments for tool 'pay'/),
    });
    expect(asked).toEqual([]);
    expect(runs).toEqual([]);
  });

  it("runs an edited call with exactly the edit, validated again", async () => {
    const runs: Pay[] = [];
    const { approvals } = answering({ approved: true, input: { to: "bob", cents: "12" } });
    const outcome = await gateToolCall(call(pay(runs), { to: "ann" }), { context, approvals });
    expect(outcome).toMatchObject({ kind: "ran", input: '{"to":"bob","cents":12}' });
    expect(runs).toEqual([{ to: "bob", cents: 12 }]);
  });

  it("asks again, naming the problem, when an edit does not fit; refuses after three bad edits", async () => {
    const runs: Pay[] = [];
    const bad: ApprovalAnswer = { approved: true, input: { to: "bob", cents: 10_000 } };
    const { asked, approvals } = answering(bad, bad, bad);
    const outcome = await gateToolCall(call(pay(runs), { to: "ann" }), { context, approvals });
    expect(outcome).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/edited arguments were refused/),
    });
    expect(asked).toHaveLength(3);
    expect(asked[1]?.problem).toMatch(/cents/);
    expect(runs).toEqual([]);

    const { approvals: fixed } = answering(bad, { approved: true, input: { to: "bob", cents: 10 } });
    await gateToolCall(call(pay(runs), { to: "ann" }), { context, approvals: fixed });
    expect(runs).toEqual([{ to: "bob", cents: 10 }]);
  });

  it("denies with reason 'timed out' when the callback takes longer than timeoutMs", async () => {
    const runs: Pay[] = [];
    const approvals = approvalCallbackAuthority(
      () => new Promise<ApprovalAnswer>((resolve) => setTimeout(() => resolve({ approved: true }), 1_000)),
    );
    const outcome = await gateToolCall(call(pay(runs, { timeoutMs: 20 }), { to: "ann" }), {
      context,
      approvals,
    });
    expect(outcome).toMatchObject({ kind: "refused", message: "The user denied this call: timed out" });
    expect(runs).toEqual([]);
  });

  it("asks when `when` throws, and uses the default message when `message` throws", async () => {
    const runs: Pay[] = [];
    const { asked, approvals } = answering({ approved: true });
    const tool = pay(runs, {
      when: () => {
        throw new Error("when broke");
      },
      message: () => {
        throw new Error("message broke");
      },
    });
    await gateToolCall(call(tool, { to: "ann" }), { context, approvals });
    expect(asked.map((question) => question.message)).toEqual(["Allow pay to run with these arguments?"]);
    expect(runs).toHaveLength(1);
  });

  it("runs without asking when `when` says no, still under the gate's grant", async () => {
    const runs: Pay[] = [];
    const outcome = await gateToolCall(
      call(pay(runs, { when: (input) => input.cents > 1000 }), { to: "ann" }),
      {
        context,
      },
    );
    expect(outcome.kind).toBe("ran");
    expect(runs).toEqual([{ to: "ann", cents: 900 }]);
  });

  it("throws an ApprovalUnavailableError when nobody can be asked", async () => {
    const runs: Pay[] = [];
    const failure = await gateToolCall(call(pay(runs), { to: "ann" }), { context }).catch(
      (error: unknown) => error,
    );
    expect(ApprovalUnavailableError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/createAgentPlatform\(\{ onApproval \}\)/);
    expect(runs).toEqual([]);
  });

  it("binds the check to our key, the tool name and the digest of the exact input", async () => {
    const checks: ApprovalCheck[] = [];
    const runs: Pay[] = [];
    const approvals = {
      decide(check: ApprovalCheck): ApprovalAnswer {
        checks.push(check);
        return { approved: true };
      },
    };
    await gateToolCall(call(pay(runs), { to: "ann", cents: "7" }, "loop-9/3.1"), { context, approvals });
    expect(checks[0]).toMatchObject({
      callKey: "loop-9/3.1",
      toolName: "pay",
      input: '{"to":"ann","cents":7}',
      digest: inputDigest('{"to":"ann","cents":7}'),
      value: { to: "ann", cents: 7 },
    });
  });

  it("rejects an approval callback that returns something else", async () => {
    const approvals = approvalCallbackAuthority(() => "yes" as unknown as ApprovalAnswer);
    const failure = await gateToolCall(call(pay([]), { to: "ann" }), { context, approvals }).catch(
      (error: unknown) => error,
    );
    expect(ConfigurationError.isInstance(failure)).toBe(true);
  });
});

describe("the grant an approval-gated tool needs", () => {
  it("a direct tool.call rejects with ApprovalUnavailableError, and nothing runs", async () => {
    const runs: Pay[] = [];
    const failure = await pay(runs)
      .call('{"to":"ann"}')
      .catch((error: unknown) => error);
    expect(ApprovalUnavailableError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/called directly/);
    expect(runs).toEqual([]);
  });

  it("is for one call with exactly the approved input: not passed to the tool's nested calls", async () => {
    const runs: Pay[] = [];
    const inner = pay(runs);
    const nestedFailures: unknown[] = [];
    // An approved outer tool that tries to call the gated tool twice itself, around the gate.
    const outer = Tool.requireApproval(
      Tool.create("outer", "Calls pay itself", async (input) => {
        for (let attempt = 0; attempt < 2; attempt += 1)
          await inner.call('{"to":"ann"}').catch((error: unknown) => nestedFailures.push(error));
        return ToolResult.text(input);
      }),
    );
    const { approvals } = answering({ approved: true });
    const outcome = await gateToolCall(call(outer, {}), { context, approvals });
    expect(outcome.kind).toBe("ran");
    expect(nestedFailures.map((error) => ApprovalUnavailableError.isInstance(error))).toEqual([true, true]);
    expect(runs).toEqual([]);
  });

  it("an @llmTool({ requireApproval }) method refuses a direct call too", async () => {
    const runs: unknown[] = [];
    const { llmTool } = await import("../tool/llm-tool.js");
    class Bank {
      @llmTool({
        description: "Pays",
        input: PayInput,
        requireApproval: { when: (input) => input.cents > 1 },
      })
      pay(input: Pay) {
        runs.push(input);
        return "paid";
      }
    }
    const [tool] = Tool.fromInstance(new Bank());
    await expect(tool?.call('{"to":"ann"}')).rejects.toThrow(/called directly/);
    expect(runs).toEqual([]);
  });
});

describe("the tool loop outside an agent process", () => {
  it("asks the loop's approval callback for each call, once, and runs what it approved", async () => {
    const runs: Pay[] = [];
    const { asked, approvals } = answering({ approved: true }, { approved: false });
    const model = ScriptedModel.of(
      ScriptedModel.toolCalls([
        { name: "pay", args: { to: "ann", cents: 1 }, id: "call_0" },
        { name: "pay", args: { to: "eve", cents: 2 }, id: "call_0" },
      ]),
      ScriptedModel.text("done"),
    );
    await runToolLoop({ model, prompt: [], tools: [pay(runs)], approvals, parallelToolCalls: true });
    expect(asked.map((question) => question.input)).toEqual([
      { to: "ann", cents: 1 },
      { to: "eve", cents: 2 },
    ]);
    expect(runs).toEqual([{ to: "ann", cents: 1 }]);
  });
});
