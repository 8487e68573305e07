import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../platform/agent-platform.js";
import { defineAgent } from "../platform/define-agent.js";
import type { OperationContext } from "../platform/operation-context.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStepInit } from "../testing/scripted-step.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { SimpleAgenticTool } from "./simple-agentic-tool.js";

class Request {
  constructor(readonly text: string) {}
}
class Ticket {
  constructor(
    readonly id: string,
    readonly urgent: boolean,
  ) {}
}
class Answer {
  constructor(readonly text: string) {}
}

const triage = (urgent: boolean) =>
  Tool.create("triage", "Triages the request", () =>
    ToolResult.withArtifact(urgent ? "urgent ticket" : "routine ticket", new Ticket("t-1", urgent)),
  );

/** A desk agent: `answer` uses the LLM with `tool`; `escalate` handles a Ticket on the blackboard. */
function desk(tool: Tool) {
  return defineAgent({
    name: "Desk",
    description: "Answers requests",
    goals: [{ name: "answered", description: "Has an answer", output: Answer }],
    actions: [
      {
        name: "answer",
        input: Request,
        output: Answer,
        run: async (request: Request, context: OperationContext) =>
          new Answer(await context.ai().withTool(tool).generateText(request.text)),
      },
      {
        name: "escalate",
        input: Ticket,
        output: Answer,
        run: (ticket: Ticket) => new Answer(`escalated ${ticket.id}`),
      },
    ],
  });
}

async function run(tool: Tool, steps: ScriptedStepInit[]) {
  const events: AgentProcessEvent[] = [];
  const platform = AgentPlatform.create({ models: { main: new ScriptedModel(steps) } });
  const process = await platform.runAgent(desk(tool), new Request("help"), {
    processOptions: ProcessOptions.DEFAULT.withListener((event) => events.push(event)),
  });
  return { process, events };
}

describe("replanning tools inside an agent", () => {
  it("Tool.replanWhen: an urgent ticket makes the process replan and choose escalate", async () => {
    const { process, events } = await run(
      Tool.replanWhen(triage(true), Ticket, (ticket) => ticket.urgent),
      [ScriptedModel.toolCall("triage", {})],
    );
    expect(process.status).toBe("completed");
    expect(process.history.map((entry) => [entry.actionName, entry.outcome])).toEqual([
      ["answer", "replan"],
      ["escalate", "succeeded"],
    ]);
    expect(process.result).toEqual(new Answer("escalated t-1"));
    expect(events.find((event) => event.type === "replan-requested")).toMatchObject({
      action: "answer",
      reason: "triage replans based on result",
    });
  });

  it("Tool.replanWhen: a routine ticket returns normally and the action completes", async () => {
    const { process } = await run(
      Tool.replanWhen(triage(false), Ticket, (ticket) => ticket.urgent),
      [ScriptedModel.toolCall("triage", {}), ScriptedModel.text("handled")],
    );
    expect(process.history.map((entry) => entry.actionName)).toEqual(["answer"]);
    expect(process.result).toEqual(new Answer("handled"));
  });

  it("a replan from a sub-tool of an agentic tool passes through the nested loop to the process", async () => {
    const agentic = SimpleAgenticTool.create("front_desk", "Handles the request").withTools(
      Tool.replanAlways(triage(false)),
    );
    const { process, events } = await run(agentic, [
      ScriptedModel.toolCall("front_desk", {}),
      ScriptedModel.toolCall("triage", {}),
    ]);
    expect(process.history.map((entry) => [entry.actionName, entry.outcome])).toEqual([
      ["answer", "replan"],
      ["escalate", "succeeded"],
    ]);
    expect(events.find((event) => event.type === "replan-requested")).toMatchObject({
      reason: "triage replans",
    });
  });
});
