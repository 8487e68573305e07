// Tool chaining across a wait for a person: an approval-gated method of a
// chained instance, called after the instance was retrieved, runs once with
// its input when approved (the binding survives the wait) and never when denied.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deskAgent } from "../../test/support/desk-agent.js";
import { SimpleAgenticTool } from "../agentic/simple-agentic-tool.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";

const RefundInput = z.object({ cents: z.number().int() });

/** Every refund that ran, as `<account>:<cents>`. */
let refunds: string[] = [];

class Account {
  constructor(readonly id: string) {}

  @llmTool({ description: "Issues a refund to this account", input: RefundInput, requiresApproval: true })
  issue_refund({ cents }: z.output<typeof RefundInput>): string {
    refunds.push(`${this.id}:${cents}`);
    return `Refunded ${cents} to ${this.id}`;
  }

  @llmTool({ description: "The account's balance" })
  balance(): string {
    return `Balance of ${this.id}: 100`;
  }
}

const getAccount = Tool.create(
  "get_account",
  "Retrieves one account",
  Tool.InputSchema.of(Tool.Parameter.string("id", "Account id")),
  (input) => {
    const { id } = JSON.parse(input) as { id: string };
    return ToolResult.withArtifact(`Account ${id}`, new Account(id));
  },
);

/** A platform whose one action asks the model with `getAccount` and the chaining `configure` sets up. */
function setup(model: ScriptedModel, configure: (runner: PromptRunner) => PromptRunner) {
  refunds = [];
  return deskAgent({ model, tools: [getAccount], configure, ticket: "Refund A7" });
}

const script = () =>
  new ScriptedModel([
    ScriptedModel.toolCall("get_account", { id: "A7" }, { id: "c1" }),
    ScriptedModel.toolCall("issue_refund", { cents: 500 }, { id: "c2" }),
    ScriptedModel.text("Done"),
  ]);

const toolResultText = (model: ScriptedModel, request: number): string =>
  JSON.stringify(model.requests[request]?.prompt.at(-1));

describe.each([
  ["withToolChainingFrom", (runner: PromptRunner) => runner.withToolChainingFrom(Account)],
  ["withToolChainingFromAny", (runner: PromptRunner) => runner.withToolChainingFromAny()],
])("%s across an approval", (_name, configure) => {
  it("approved: the chained tool runs once with its input on the instance retrieved before the wait", async () => {
    const model = script();
    const { platform, start } = setup(model, configure);
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting[0]).toMatchObject({ toolName: "issue_refund", arguments: { cents: 500 } });
    expect(refunds).toEqual([]);
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ text: "Done" });
    expect(refunds).toEqual(["A7:500"]);
    expect(model.requests).toHaveLength(3);
    expect(toolResultText(model, 2)).toContain("Refunded 500 to A7");
    // The resumed loop offers what the stopped one did.
    expect(model.requests[2]?.toolNames).toEqual(model.requests[1]?.toolNames);
    expect(model.requests[2]?.toolNames).toContain("issue_refund");
  });

  it("denied: the chained tool never runs and the model is told", async () => {
    const model = script();
    const { platform, start } = setup(model, configure);
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: false, reason: "too much" });
    expect(done.status).toBe("completed");
    expect(refunds).toEqual([]);
    expect(toolResultText(model, 2)).toContain("too much");
    expect(toolResultText(model, 2)).not.toContain("must first retrieve");
  });
});

describe("chaining state after the wait", () => {
  it("a later call after resuming still uses the instance bound before the wait", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("get_account", { id: "B2" }, { id: "c1" }),
      ScriptedModel.toolCall("issue_refund", { cents: 5 }, { id: "c2" }),
      ScriptedModel.toolCall("balance", {}, { id: "c3" }),
      ScriptedModel.text("Done"),
    ]);
    const { platform, start } = setup(model, (runner) => runner.withToolChainingFrom(Account));
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(refunds).toEqual(["B2:5"]);
    expect(toolResultText(model, 3)).toContain("Balance of B2: 100");
  });

  it("a placeholder called before any instance was retrieved still says so after the wait", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("issue_refund", { cents: 5 }, { id: "c1" }),
      ScriptedModel.text("Done"),
    ]);
    const { platform, start } = setup(model, (runner) => runner.withToolChainingFrom(Account));
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(refunds).toEqual([]);
    expect(toolResultText(model, 1)).toContain(
      "This tool is not yet available. You must first retrieve a single Account instance.",
    );
  });
});

describe("chaining inside an agentic tool across an approval", () => {
  it.each([
    ["withToolChainingFrom", (tool: SimpleAgenticTool) => tool.withToolChainingFrom(Account)],
    ["withToolChainingFromAny", (tool: SimpleAgenticTool) => tool.withToolChainingFromAny()],
  ])("%s: the nested loop's chained tool runs once approved, never denied", async (_name, chain) => {
    for (const approved of [true, false]) {
      const model = new ScriptedModel([
        ScriptedModel.toolCall("accounts", {}, { id: "o" }),
        ScriptedModel.toolCall("get_account", { id: "N1" }, { id: "c1" }),
        ScriptedModel.toolCall("issue_refund", { cents: 7 }, { id: "c2" }),
        ScriptedModel.text("nested done"),
        ScriptedModel.text("Done"),
      ]);
      const agentic = chain(SimpleAgenticTool.create("accounts", "Account work").withTools(getAccount));
      const { platform, start } = setup(model, (runner) => runner.withTools([agentic]));
      const waiting = await start();
      expect(waiting.status).toBe("waiting");
      const done = await platform.respond(
        waiting.id,
        "r1",
        approved ? { approved } : { approved, reason: "refund refused" },
      );
      expect(done.status).toBe("completed");
      expect(refunds).toEqual(approved ? ["N1:7"] : []);
      expect(toolResultText(model, 3)).toContain(approved ? "Refunded 7 to N1" : "refund refused");
    }
  });
});

/** A subclass whose override of `issue_refund` asks a person above 100 cents (its base, `Ledger`, never asks). */
class Ledger {
  constructor(readonly id: string) {}

  @llmTool({ description: "Issues a refund", input: RefundInput })
  issue_refund({ cents }: z.output<typeof RefundInput>): string {
    refunds.push(`ledger ${this.id}:${cents}`);
    return `Ledger refunded ${cents}`;
  }
}

class AuditedLedger extends Ledger {
  @llmTool({
    description: "Issues a refund, with a person's approval above 100 cents",
    input: RefundInput,
    requireApproval: { when: (input: { cents: number }) => input.cents > 100 },
  })
  override issue_refund({ cents }: z.output<typeof RefundInput>): string {
    refunds.push(`audited ${this.id}:${cents}`);
    return `Audited refund of ${cents}`;
  }
}

const getLedger = Tool.create(
  "get_ledger",
  "Retrieves one ledger",
  Tool.InputSchema.of(Tool.Parameter.string("id", "Ledger id")),
  (input) => {
    const { id } = JSON.parse(input) as { id: string };
    return ToolResult.withArtifact(`Ledger ${id}`, new AuditedLedger(id));
  },
);

describe("a placeholder bound to an instance whose method needs approval the registered type's does not", () => {
  function ledgerDesk(model: ScriptedModel) {
    refunds = [];
    return deskAgent({
      model,
      tools: [getLedger],
      configure: (runner) => runner.withToolChainingFrom(Ledger),
      name: "LedgerDesk",
      ticket: "Refund L1",
    });
  }

  const ledgerScript = (cents: number) =>
    new ScriptedModel([
      ScriptedModel.toolCall("get_ledger", { id: "L1" }, { id: "c1" }),
      ScriptedModel.toolCall("issue_refund", { cents }, { id: "c2" }),
      ScriptedModel.text("Done"),
    ]);

  it("asks the person (the bound method's policy) and runs once approved, with the input asked about", async () => {
    const model = ledgerScript(500);
    const { platform, start } = ledgerDesk(model);
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting[0]).toMatchObject({
      kind: "approval",
      toolName: "issue_refund",
      arguments: { cents: 500 },
    });
    expect(refunds).toEqual([]);
    const done = await platform.respond(waiting.id, waiting.awaiting[0]?.id as string, { approved: true });
    expect(done.status).toBe("completed");
    expect(refunds).toEqual(["audited L1:500"]);
    expect(toolResultText(model, 2)).toContain("Audited refund of 500");
  });

  it("denied: never runs, and the model is told", async () => {
    const model = ledgerScript(500);
    const { platform, start } = ledgerDesk(model);
    const waiting = await start();
    const done = await platform.respond(waiting.id, waiting.awaiting[0]?.id as string, {
      approved: false,
      reason: "not today",
    });
    expect(done.status).toBe("completed");
    expect(refunds).toEqual([]);
    expect(toolResultText(model, 2)).toContain("The user denied this call: not today");
  });

  it("below the bound method's threshold: runs at once, nobody asked", async () => {
    const model = ledgerScript(50);
    const { start } = ledgerDesk(model);
    const done = await start();
    expect(done.status).toBe("completed");
    expect(refunds).toEqual(["audited L1:50"]);
    expect(toolResultText(model, 2)).toContain("Audited refund of 50");
  });
});
