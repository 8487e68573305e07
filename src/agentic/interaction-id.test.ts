import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { PlaybookTool } from "./playbook-tool.js";
import { SimpleAgenticTool } from "./simple-agentic-tool.js";
import { StateMachineTool } from "./state-machine-tool.js";

const lookup = Tool.create("lookup", "Looks something up", () => ToolResult.text("found"));

/** Runs an outer interaction (named `outer` when `named`) offering `tool`; returns each LLM call's interaction id, in order. */
async function interactionIds(tool: Tool, named = false): Promise<(string | undefined)[]> {
  const model = new ScriptedModel([
    ScriptedModel.toolCall(tool.definition.name, {}),
    ScriptedModel.toolCall("lookup", {}),
    ScriptedModel.text("inner done"),
    ScriptedModel.text("outer done"),
  ]);
  const events: AgentProcessEvent[] = [];
  const platform = AgentPlatform.create({ models: { main: model } });
  const process = await platform.runInProcess(
    async (context) => {
      const runner = context.ai().withTool(tool);
      return (named ? runner.withInteractionId("outer") : runner).generateText("go");
    },
    { processOptions: ProcessOptions.DEFAULT.withListener((event) => events.push(event)) },
  );
  expect(process.status).toBe("completed");
  const starts = events.filter((event) => event.type === "llm-call-start");
  const ends = events.filter((event) => event.type === "llm-call-end");
  // Each call's end names the same interaction as its start.
  expect(ends.map((event) => event.interactionId)).toEqual(starts.map((event) => event.interactionId));
  return starts.map((event) => event.interactionId);
}

describe("interaction ids", () => {
  it("name a SimpleAgenticTool's nested loop simple-agentic-tool-<name>; an unnamed outer loop has none", async () => {
    const tool = SimpleAgenticTool.create("researcher", "Researches").withTools(lookup);
    expect(await interactionIds(tool)).toEqual([
      undefined,
      "simple-agentic-tool-researcher",
      "simple-agentic-tool-researcher",
      undefined,
    ]);
  });

  it("name a PlaybookTool's nested loop playbook-tool-<name>", async () => {
    const tool = PlaybookTool.create("playbook", "Follows steps").withTools(lookup);
    expect(await interactionIds(tool, true)).toEqual([
      "outer",
      "playbook-tool-playbook",
      "playbook-tool-playbook",
      "outer",
    ]);
  });

  it("name a StateMachineTool's nested loop state-machine-tool-<name>", async () => {
    const tool = StateMachineTool.create("machine", "Moves through states", ["A"])
      .withInitialState("A")
      .inState("A")
      .withTool(lookup)
      .build();
    expect(await interactionIds(tool)).toEqual([
      undefined,
      "state-machine-tool-machine",
      "state-machine-tool-machine",
      undefined,
    ]);
  });

  it("are non-empty strings", () => {
    const platform = AgentPlatform.create({ models: { main: new ScriptedModel() } });
    expect(platform.ai().withInteractionId("triage").interactionId).toBe("triage");
    expect(platform.ai().interactionId).toBeUndefined();
    expect(() => platform.ai().withInteractionId(" ")).toThrow(ConfigurationError);
    expect(() => platform.ai().withInteractionId(" ")).toThrow(
      'An interaction id must be a non-empty string, got " ".',
    );
  });
});
