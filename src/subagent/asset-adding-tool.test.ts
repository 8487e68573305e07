import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runToolLoop } from "../loop/tool-loop.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { defineAgent } from "../platform/define-agent.js";
import type { OperationContext } from "../platform/operation-context.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { AssetAddingTool } from "./asset-adding-tool.js";
import { AssetTracker } from "./asset-tracker.js";
import { Subagent } from "./subagent.js";

class Performance {
  constructor(
    readonly title: string,
    readonly year: number,
  ) {}
}

describe("AssetAddingTool", () => {
  it("converts artifacts of a given class into assets", async () => {
    const tracker = AssetTracker.inMemory();
    const delegate = Tool.create("find", "Finds", () =>
      ToolResult.withArtifact("two", new Set([new Performance("Requiem", 1791), "noise"])),
    );
    const tool = new AssetAddingTool(delegate, tracker, {
      type: Performance,
      converter: (performance) => ({ id: `${performance.title}-${performance.year}` }),
    });
    await tool.call("{}");
    expect(tracker.assets).toEqual([{ id: "Requiem-1791" }]);
  });

  it("matches a domain type by its schema", async () => {
    const tracker = AssetTracker.inMemory();
    const Report = domainType("Report", z.object({ id: z.string(), pages: z.number() }));
    const delegate = Tool.create("report", "Reports", () =>
      ToolResult.withArtifact("r", [{ id: "r1", pages: 3 }, { id: "r2" }]),
    );
    await new AssetAddingTool(delegate, tracker, { type: Report }).call("{}");
    expect(tracker.assets).toEqual([{ id: "r1", pages: 3 }]);
  });

  it("passes the input, the context and the signal to the delegate", async () => {
    const seen: unknown[] = [];
    const delegate = Tool.create("echo", "Echoes", (input, context, options) => {
      seen.push(input, context.get("tenant"), options.signal);
      return ToolResult.text("ok");
    });
    const tool = new AssetAddingTool(delegate, AssetTracker.inMemory());
    const { signal } = new AbortController();
    await tool.call('{"q":1}', ToolCallContext.of({ tenant: "acme" }), { signal });
    expect(seen).toEqual(['{"q":1}', "acme", signal]);
  });

  it("lets a delegate's exception propagate without tracking anything", async () => {
    const tracker = AssetTracker.inMemory();
    const delegate = Tool.create("boom", "Fails", () => {
      throw new Error("down");
    });
    await expect(new AssetAddingTool(delegate, tracker).call("{}")).rejects.toThrow("down");
    expect(tracker.assets).toEqual([]);
  });

  it("keeps returnDirect in a tool loop: the delegate's content is the answer, and the asset is tracked", async () => {
    const tracker = AssetTracker.inMemory();
    const delegate = Tool.create(
      "publish",
      "Publishes the report",
      ToolMetadata.create({ returnDirect: true }),
      () => ToolResult.withArtifact("Published r1.", { id: "r1" }),
    );
    const model = new ScriptedModel([ScriptedModel.toolCall("publish", {}), ScriptedModel.text("unused")]);
    const loop = await runToolLoop({
      model,
      prompt: [{ role: "user", content: [{ type: "text", text: "publish" }] }],
      tools: [tracker.addReturnedAssets(delegate)],
    });
    expect(loop.returnedDirect).toBe(true);
    expect(loop.text).toBe("Published r1.");
    expect(model.requests).toHaveLength(1);
    expect(tracker.assets).toEqual([{ id: "r1" }]);
  });

  it("tracks the assets a Subagent returns when an agent's LLM calls it", async () => {
    const Work = domainType("Work", z.object({ title: z.string() }));
    const Programme = domainType("Programme", z.object({ id: z.string(), titles: z.array(z.string()) }));
    const Request = domainType("Request", z.object({ text: z.string() }));
    const Answer = domainType("Answer", z.object({ text: z.string() }));
    const programmer = defineAgent({
      name: "Programmer",
      description: "Builds a programme",
      actions: [
        {
          name: "build",
          input: Work,
          output: Programme,
          achievesGoal: { description: "Built" },
          run: (work: { title: string }) => ({ id: "prog-1", titles: [work.title] }),
        },
      ],
    });
    const tracker = AssetTracker.inMemory();
    const tracked = tracker.addReturnedAssets(Subagent.byName("Programmer").consuming(Work));
    const planner = defineAgent({
      name: "Planner",
      description: "Plans",
      actions: [
        {
          name: "plan",
          input: Request,
          output: Answer,
          achievesGoal: { description: "Planned" },
          run: async (request: { text: string }, context: OperationContext) => ({
            text: await context.ai().withTool(tracked).generateText(request.text),
          }),
        },
      ],
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCall("Programmer", { title: "Requiem" }),
      ScriptedModel.text("Programme ready."),
    ]);
    const platform = AgentPlatform.create({ name: "test", models: { main: model } });
    platform.deploy(programmer);
    const process = await platform.runAgent(platform.deploy(planner), Request.create({ text: "plan" }));
    expect(process.status).toBe("completed");
    expect(tracker.assets).toEqual([{ id: "prog-1", titles: ["Requiem"] }]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: '{"id":"prog-1","titles":["Requiem"]}',
    });
  });

  it("names itself after the delegate", () => {
    const delegate = Tool.create("find", "Finds", () => ToolResult.text(""));
    expect(String(new AssetAddingTool(delegate, AssetTracker.inMemory()))).toBe("AssetAddingTool(find)");
  });
});
