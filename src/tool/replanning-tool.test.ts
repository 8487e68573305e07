import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ReplanRequested } from "../errors/replan-requested.js";
import { DelegatingTool } from "./abstract-tool.js";
import { AmbientProcess } from "./ambient-process.js";
import { ConditionalReplanningTool, ReplanningTool } from "./replanning-tool.js";
import { Tool } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult } from "./tool-result.js";
import { domainType } from "./type-token.js";

const Ticket = domainType("Ticket", z.object({ id: z.string(), urgent: z.boolean() }));

function returning(result: ToolResult, name = "triage"): Tool {
  return Tool.create(name, "Triages a ticket", ToolMetadata.create({ returnDirect: true }), () => result);
}

function fakeProcess() {
  const added: unknown[] = [];
  const process: AmbientProcess = { id: "p-1", blackboard: { add: (value) => added.push(value) } };
  return { process, added };
}

/** Runs `tool` inside a fake process; returns the result, or the replan request it threw. */
async function callInProcess(tool: Tool, input = "{}", context = ToolCallContext.EMPTY) {
  const { process, added } = fakeProcess();
  try {
    const result = await AmbientProcess.run(process, () => tool.call(input, context));
    return { result, added };
  } catch (error) {
    if (!ReplanRequested.isInstance(error)) throw error;
    error.blackboardUpdater(process.blackboard);
    return { replan: error, added };
  }
}

describe("ReplanningTool", () => {
  it("runs the delegate, then always replans; the default updater adds the result's content", async () => {
    let calls = 0;
    const tool = new ReplanningTool(
      Tool.create("check", "Checks", () => {
        calls++;
        return ToolResult.text("needs escalation");
      }),
      "check says so",
    );
    const { replan, added } = await callInProcess(tool);
    expect(calls).toBe(1);
    expect(replan?.reason).toBe("check says so");
    expect(added).toEqual(["needs escalation"]);
  });

  it("gives a custom updater an error result's message", async () => {
    const seen: string[] = [];
    const tool = new ReplanningTool(returning(ToolResult.error("boom")), "failed", (content) =>
      seen.push(content),
    );
    const { replan } = await callInProcess(tool);
    expect(replan).toBeDefined();
    expect(seen).toEqual(["boom"]);
  });

  it("keeps the delegate's definition, metadata and passes the context through", async () => {
    let seen: ToolCallContext | undefined;
    const inner = Tool.create("t", "d", (_input, context) => {
      seen = context;
      return ToolResult.text("x");
    });
    const tool = new ReplanningTool(inner, "r");
    expect(tool.definition).toBe(inner.definition);
    expect(tool).toBeInstanceOf(DelegatingTool);
    const context = ToolCallContext.of({ tenant: "acme" });
    await callInProcess(tool, "{}", context);
    expect(seen?.get("tenant")).toBe("acme");
  });
});

describe("ConditionalReplanningTool", () => {
  it("needs a current agent process, and says so in the reference's words alone", async () => {
    const tool = new ConditionalReplanningTool(returning(ToolResult.text("x")), () => undefined);
    await expect(tool.call("{}")).rejects.toThrow(ConfigurationError);
    const error = await tool.call("{}").catch((caught: unknown) => caught);
    // The model sees `WARNING: Tool 'triage' failed with exception: ` followed by exactly this.
    expect((error as Error).message).toBe("No AgentProcess available for ConditionalReplanningTool");
  });

  it("returns the result unchanged when the decider declines", async () => {
    const result = ToolResult.withArtifact("t", { id: "1", urgent: false });
    const tool = new ConditionalReplanningTool(returning(result), () => undefined);
    expect((await callInProcess(tool)).result).toBe(result);
    expect(tool.metadata.returnDirect).toBe(true);
  });

  it("gives the decider the result, content, artifact, process and tool", async () => {
    const artifact = { id: "1", urgent: true };
    let seen: Parameters<ConstructorParameters<typeof ConditionalReplanningTool>[1]>[0] | undefined;
    const tool = new ConditionalReplanningTool(returning(ToolResult.withArtifact("text", artifact)), (c) => {
      seen = c;
      return { reason: "urgent", blackboardUpdater: (blackboard) => void blackboard.add("flag") };
    });
    const { replan, added } = await callInProcess(tool);
    expect(seen?.artifact).toBe(artifact);
    expect(seen?.resultContent).toBe("text");
    expect(seen?.tool.name).toBe("triage");
    expect(seen?.agentProcess.id).toBe("p-1");
    expect(replan?.reason).toBe("urgent");
    expect(added).toEqual(["flag"]);
  });
});

describe("Tool.replanAlways", () => {
  it("replans with '<name> replans' and adds the artifact", async () => {
    const artifact = { id: "7", urgent: false };
    const { replan, added } = await callInProcess(
      Tool.replanAlways(returning(ToolResult.withArtifact("t", artifact))),
    );
    expect(replan?.reason).toBe("triage replans");
    expect(added).toEqual([artifact]);
  });

  it.each([
    ["a text result", ToolResult.text("t")],
    ["a null artifact", ToolResult.withArtifact("t", null)],
  ])("replans after %s without adding anything", async (_, result) => {
    const { replan, added } = await callInProcess(Tool.replanAlways(returning(result)));
    expect(replan?.reason).toBe("triage replans");
    expect(added).toStrictEqual([]);
  });
});

describe("Tool.replanWhen", () => {
  const urgent = { id: "1", urgent: true };
  const calm = { id: "2", urgent: false };

  it("replans with '<name> replans based on result' when the typed predicate holds", async () => {
    const tool = Tool.replanWhen(returning(ToolResult.withArtifact("t", urgent)), Ticket, (t) => t.urgent);
    const { replan, added } = await callInProcess(tool);
    expect(replan?.reason).toBe("triage replans based on result");
    expect(added).toEqual([urgent]);
  });

  it("returns normally when the predicate is false, the artifact is another type, or there is none", async () => {
    const predicate = (t: { urgent: boolean }) => t.urgent;
    for (const result of [
      ToolResult.withArtifact("t", calm),
      ToolResult.withArtifact("t", "a string"),
      ToolResult.text("t"),
    ]) {
      const outcome = await callInProcess(Tool.replanWhen(returning(result), Ticket, predicate));
      expect(outcome.result).toBe(result);
    }
  });

  it("never gives a typed predicate an artifact of another type", async () => {
    const seen: unknown[] = [];
    const result = ToolResult.withArtifact("t", "a string");
    const tool = Tool.replanWhen(returning(result), Ticket, (ticket) => {
      seen.push(ticket);
      return true;
    });
    expect((await callInProcess(tool)).result).toBe(result);
    expect(seen).toEqual([]);
  });

  it("accepts an untyped predicate", async () => {
    const tool = Tool.replanWhen(returning(ToolResult.withArtifact("t", 42)), (value) => value === 42);
    expect((await callInProcess(tool)).replan?.reason).toBe("triage replans based on result");
  });
});

describe("Tool.replanAndAdd", () => {
  it("adds the computed value and replans; undefined returns normally", async () => {
    const escalate = Tool.replanAndAdd(
      returning(ToolResult.withArtifact("t", { id: "9", urgent: true })),
      Ticket,
      (t) => (t.urgent ? { escalate: t.id } : undefined),
    );
    const { replan, added } = await callInProcess(escalate);
    expect(replan?.reason).toBe("triage replans based on result");
    expect(added).toEqual([{ escalate: "9" }]);

    const calm = ToolResult.withArtifact("t", { id: "9", urgent: false });
    const quiet = Tool.replanAndAdd(returning(calm), Ticket, (t) => (t.urgent ? 1 : undefined));
    expect((await callInProcess(quiet)).result).toBe(calm);
  });
});

describe("Tool.conditionalReplan", () => {
  it("adds the artifact, then runs the decision's updater", async () => {
    const artifact = { id: "3", urgent: true };
    const tool = Tool.conditionalReplan(returning(ToolResult.withArtifact("t", artifact)), Ticket, (t, c) =>
      t.urgent
        ? { reason: `urgent ${t.id} from ${c.tool.name}`, blackboardUpdater: (b) => void b.add("note") }
        : undefined,
    );
    const { replan, added } = await callInProcess(tool);
    expect(replan?.reason).toBe("urgent 3 from triage");
    expect(added).toEqual([artifact, "note"]);
  });

  it("returns normally when the decider gives no decision", async () => {
    const result = ToolResult.withArtifact("t", { id: "3", urgent: false });
    const tool = Tool.conditionalReplan(returning(result), () => undefined);
    expect((await callInProcess(tool)).result).toBe(result);
  });

  it("never calls a typed decider with an artifact of another type, or with none", async () => {
    const seen: unknown[] = [];
    const always = (artifact: unknown) => {
      seen.push(artifact);
      return { reason: "always" };
    };
    for (const result of [
      ToolResult.withArtifact("t", { id: 7 }),
      ToolResult.withArtifact("t", null),
      ToolResult.text("t"),
    ]) {
      const tool = Tool.conditionalReplan(returning(result), Ticket, always);
      const outcome = await callInProcess(tool);
      expect(outcome.result).toBe(result);
      expect(outcome.added).toEqual([]);
    }
    expect(seen).toEqual([]);
  });

  it("never calls an untyped decider with a null artifact", async () => {
    const result = ToolResult.withArtifact("t", null);
    let called = false;
    const tool = Tool.conditionalReplan(returning(result), () => {
      called = true;
      return { reason: "never" };
    });
    expect((await callInProcess(tool)).result).toBe(result);
    expect(called).toBe(false);
  });

  it("replans on a decision without an updater, adding only the artifact", async () => {
    const artifact = { id: "4", urgent: true };
    const tool = Tool.conditionalReplan(returning(ToolResult.withArtifact("t", artifact)), Ticket, () => ({
      reason: "no updater",
    }));
    const { replan, added } = await callInProcess(tool);
    expect(replan?.reason).toBe("no updater");
    expect(added).toEqual([artifact]);
  });
});

describe("Tool.replanAndAdd with nothing to add", () => {
  it("returns normally when the computation gives null", async () => {
    const result = ToolResult.withArtifact("t", { id: "9", urgent: true });
    const tool = Tool.replanAndAdd(returning(result), Ticket, () => null);
    const outcome = await callInProcess(tool);
    expect(outcome.result).toBe(result);
    expect(outcome.added).toEqual([]);
  });
});
