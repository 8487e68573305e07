// Tool loops inside an action that stops to wait for a person: on resuming,
// the action runs again from its start, and each of its loops either replays
// (finished before the wait), resumes (the one that waited) or runs again (a
// loop whose end could not be kept).
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ReplanRequested } from "../errors/replan-requested.js";
import type { LoopWaits } from "../loop/loop-waits.js";
import { runToolLoop, type ToolLoopResult } from "../loop/tool-loop.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { AgentPlatform } from "./agent-platform.js";
import { defineAgent } from "./define-agent.js";
import { WaitFor } from "./wait-for.js";

const Task = domainType("Task", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ text: z.string() }));

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Go" }] }];

/** A tool that asks a person to confirm before it answers. */
const confirm = Tool.create("confirm", "Asks a person", async () => {
  const answer = await WaitFor.confirmation({ step: "confirm" }, "Go on?");
  return ToolResult.text(answer.approved ? "confirmed" : "refused");
});

/** A platform running one action, `run`, on `model`. */
function setup(
  model: ScriptedModel,
  run: (context: { readonly process: { readonly loopWaits: LoopWaits } }) => Promise<string>,
) {
  const platform = AgentPlatform.create({ models: { main: model } });
  const agent = defineAgent({
    name: "Worker",
    description: "Works",
    actions: [
      {
        name: "work",
        input: Task,
        output: Answer,
        achievesGoal: { description: "Done" },
        run: async (_task, context) => ({ text: await run(context) }),
      },
    ],
  });
  return { platform, start: () => platform.runAgent(agent, Task.create({ text: "go" })) };
}

/** A platform whose one action runs a loop offering `tools` and answers its text. */
function setupLoop(model: ScriptedModel, tools: Tool[]) {
  return setup(model, async (context) => {
    const result = await runToolLoop({ model, prompt, tools, waits: context.process.loopWaits });
    return result.text;
  });
}

describe("tool loops in an action that waits", () => {
  it("replays a loop that finished before the wait: its result again, without calling the model", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("admin", {}),
      ScriptedModel.text("first answer", { usage: { inputTokens: 7, outputTokens: 3 } }),
    ]);
    const facade = UnfoldingTool.of("admin", "Admin tools", [
      Tool.create("purge", "Purges", () => ToolResult.text("ok")),
    ]);
    const firsts: ToolLoopResult[] = [];
    const { platform, start } = setup(model, async (context) => {
      const first = await runToolLoop({ model, prompt, tools: [facade], waits: context.process.loopWaits });
      firsts.push(first);
      const answer = await WaitFor.confirmation({ step: "after" }, "Go on?");
      return `${first.text} / ${answer.approved}`;
    });
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.result).toEqual({ text: "first answer / true" });
    expect(model.requests).toHaveLength(2);
    const [ran, replayed] = firsts as [ToolLoopResult, ToolLoopResult];
    expect(ran.injectedTools.map((tool) => tool.definition.name)).toEqual([
      "admin",
      "purge",
      "admin_context",
    ]);
    expect(replayed).toEqual({
      text: "first answer",
      prompt: ran.prompt,
      iterations: 2,
      usage: ran.usage,
      loopId: ran.loopId,
      tools: [facade],
      injectedTools: [],
      removedTools: [],
      returnedDirect: false,
      llmRetries: 0,
    });
    expect(replayed.usage.inputTokens).toBe(7);
  });

  it("keeps the empty-reply nudge used before the wait: a second empty reply is the answer", async () => {
    const model = new ScriptedModel([
      ScriptedModel.text("  "),
      ScriptedModel.toolCall("confirm", {}),
      ScriptedModel.text(""),
      ScriptedModel.text("a reply to a second nudge"),
    ]);
    const { platform, start } = setup(model, async (context) => {
      const result = await runToolLoop({ model, prompt, tools: [confirm], waits: context.process.loopWaits });
      return `[${result.text}]`;
    });
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.result).toEqual({ text: "[]" });
    expect(model.requests).toHaveLength(3);
  });

  it("runs a loop that ended with a replan again on resuming: its blackboard update is not kept", async () => {
    const escalate = Tool.create("escalate", "Escalate", () => {
      throw new ReplanRequested("needs a human", () => {});
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCall("escalate", {}),
      ScriptedModel.toolCall("escalate", {}),
    ]);
    const { platform, start } = setup(model, async (context) => {
      const first = await runToolLoop({ model, prompt, tools: [escalate], waits: context.process.loopWaits });
      const answer = await WaitFor.confirmation({ step: "after" }, "Go on?");
      return `${first.replan?.reason} / ${typeof first.replan?.blackboardUpdater} / ${answer.approved}`;
    });
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.result).toEqual({ text: "needs a human / function / true" });
    expect(model.requests).toHaveLength(2);
  });

  it("offers a facade not yet called before the wait as itself again: called after resuming, it unfolds", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("confirm", {}),
      ScriptedModel.toolCall("admin", {}),
      ScriptedModel.text("done"),
    ]);
    const facade = UnfoldingTool.of("admin", "Admin tools", [
      Tool.create("purge", "Purges", () => ToolResult.text("ok")),
    ]);
    const { platform, start } = setupLoop(model, [facade, confirm]);
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.result).toEqual({ text: "done" });
    expect(model.requests[2]?.toolNames).toEqual(["admin", "confirm", "purge", "admin_context"]);
  });

  it("restores a category facade's unfolding with the category it chose, not all its tools", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("admin", { category: "users" }),
      ScriptedModel.toolCall("confirm", {}),
      ScriptedModel.text("done"),
    ]);
    const facade = UnfoldingTool.byCategory("admin", "Admin tools", {
      users: [Tool.create("ban_user", "Bans a user", () => ToolResult.text("ok"))],
      billing: [Tool.create("refund", "Refunds", () => ToolResult.text("ok"))],
    });
    const { platform, start } = setupLoop(model, [facade, confirm]);
    const waiting = await start();
    await platform.respond(waiting.id, "r1", { approved: true });
    const contextTool = (index: number) =>
      model.requests[index]?.tools.find((tool) => tool.name === "admin_context")?.description;
    expect(model.requests).toHaveLength(3);
    expect(model.requests[2]?.toolNames).toEqual(["admin", "confirm", "ban_user", "admin_context"]);
    expect(contextTool(2)).toBe(contextTool(1));
    expect(contextTool(2)).toContain("ban_user");
    expect(contextTool(2)).not.toContain("refund");
  });
});
