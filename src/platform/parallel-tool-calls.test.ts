// Parallel tool calls (`parallelToolCalls: true`) in an agent process, where
// a round can stop for a person: approvals are asked for all at once, and a
// tool that waits stops the round once the others have settled.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ReplanRequested } from "../errors/replan-requested.js";
import { TerminateAgent } from "../errors/terminate-agent.js";
import type { ToolInjectionStrategy } from "../loop/tool-injection-strategy.js";
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

/** A tool that records each run in `runs` and answers `<name> done`. */
function counted(name: string, runs: string[]): Tool {
  return Tool.create(name, `The ${name} tool`, () => {
    runs.push(name);
    return ToolResult.text(`${name} done`);
  });
}

/** A tool that asks a person to confirm before it answers. */
function confirming(name: string, runs: string[]): Tool {
  return Tool.create(name, `The ${name} tool`, async () => {
    const answer = await WaitFor.confirmation({ tool: name }, `Run ${name}?`);
    runs.push(name);
    return ToolResult.text(answer.approved ? `${name} confirmed` : `${name} refused`);
  });
}

/** Runs one action whose loop (parallel tool calls, the process's waits) offers `tools`. */
function setup(model: ScriptedModel, tools: Tool[], injectionStrategy?: ToolInjectionStrategy) {
  const results: ToolLoopResult[] = [];
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
        run: async (_task, context) => {
          const result = await runToolLoop({
            model,
            prompt,
            tools,
            parallelToolCalls: true,
            waits: context.process.loopWaits,
            ...(injectionStrategy ? { injectionStrategy } : {}),
          });
          results.push(result);
          return { text: result.text };
        },
      },
    ],
  });
  const start = () => platform.runAgent(agent, Task.create({ text: "go" }));
  return { platform, results, start };
}

const outputs = (model: ScriptedModel, index: number) =>
  model.requests[index]?.toolResults.map((result) => result.output);

describe("parallel tool calls in an agent process", () => {
  it("asks every approval of the round at once and runs no call until all are answered", async () => {
    const runs: string[] = [];
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "pay", args: {}, id: "p" },
        { name: "log", args: {}, id: "l" },
        { name: "ship", args: {}, id: "s" },
      ]),
      ScriptedModel.text("All done"),
    ]);
    const pay = Tool.requireApproval(counted("pay", runs), { message: "Pay?" });
    const ship = Tool.requireApproval(counted("ship", runs), { message: "Ship?" });
    const { platform, start } = setup(model, [pay, counted("log", runs), ship]);
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting.map((request) => request.kind === "approval" && request.toolName)).toEqual([
      "pay",
      "ship",
    ]);
    expect(runs).toEqual([]);
    const still = await platform.respond(waiting.id, "r2", { approved: false, reason: "no stock" });
    expect(still.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(done.result).toEqual({ text: "All done" });
    expect(runs.sort()).toEqual(["log", "pay"]);
    expect(model.requests).toHaveLength(2);
    expect(outputs(model, 1)).toEqual([
      { type: "text", value: "pay done" },
      { type: "text", value: "log done" },
      { type: "error-text", value: "The user denied this call: no stock" },
    ]);
  });

  it("runs the other calls once when one waits for a person, and keeps their results for the resumed round", async () => {
    const runs: string[] = [];
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "log", args: {}, id: "l" },
        { name: "ship", args: {}, id: "s" },
      ]),
      ScriptedModel.text("Shipped"),
    ]);
    const { platform, start } = setup(model, [counted("log", runs), confirming("ship", runs)]);
    const waiting = await start();
    expect(waiting.status).toBe("waiting");
    expect(waiting.awaiting.map((request) => request.kind)).toEqual(["confirmation"]);
    expect(runs).toEqual(["log"]);
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(["log", "ship"]);
    expect(model.requests).toHaveLength(2);
    expect(outputs(model, 1)).toEqual([
      { type: "text", value: "log done" },
      { type: "text", value: "ship confirmed" },
    ]);
  });

  it("unfolds a facade called beside a tool that waits, once the round resumes", async () => {
    const runs: string[] = [];
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "admin", args: {}, id: "a" },
        { name: "ship", args: {}, id: "s" },
      ]),
      ScriptedModel.text("Unfolded"),
    ]);
    const facade = UnfoldingTool.of("admin", "Admin tools", [counted("purge", runs)]);
    const { platform, start } = setup(model, [facade, confirming("ship", runs)]);
    const waiting = await start();
    const done = await platform.respond(waiting.id, "r1", { approved: true });
    expect(done.status).toBe("completed");
    expect(outputs(model, 1)?.[0]).toMatchObject({
      value: expect.stringMatching(/^Tools now available: purge\./),
    });
    expect(model.requests[1]?.toolNames).toEqual(["admin", "ship", "purge", "admin_context"]);
  });

  it("shows the injection strategy each call once, in the run it settled in", async () => {
    const runs: string[] = [];
    const seen: string[] = [];
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "log", args: {}, id: "l" },
        { name: "ship", args: {}, id: "s" },
      ]),
      ScriptedModel.text("Shipped"),
    ]);
    const strategy: ToolInjectionStrategy = {
      evaluate: (context) => void seen.push(context.lastToolCall.toolName),
    };
    const { platform, start } = setup(model, [counted("log", runs), confirming("ship", runs)], strategy);
    const waiting = await start();
    expect(seen).toEqual(["log"]);
    await platform.respond(waiting.id, "r1", { approved: true });
    expect(seen).toEqual(["log", "ship"]);
  });

  it("ends with the first replan in call order, reporting no results", async () => {
    const runs: string[] = [];
    const escalate = Tool.create("escalate", "Escalate", () => {
      throw new ReplanRequested("needs a human");
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "log", args: {}, id: "l" },
        { name: "escalate", args: {}, id: "e" },
      ]),
      ScriptedModel.text("never requested"),
    ]);
    const { results, start } = setup(model, [counted("log", runs), escalate]);
    await start();
    expect(results[0]?.replan?.reason).toBe("needs a human");
    expect(model.requests).toHaveLength(1);
    expect(results[0]?.prompt.some((message) => message.role === "tool")).toBe(false);
  });

  it("ends with a replan asked for beside a call that waits, instead of waiting and losing the replan", async () => {
    const runs: string[] = [];
    const escalate = Tool.create("escalate", "Escalate", () => {
      throw new ReplanRequested("needs a human");
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "escalate", args: {}, id: "e" },
        { name: "ship", args: {}, id: "s" },
      ]),
      ScriptedModel.text("never requested"),
    ]);
    const { results, start } = setup(model, [escalate, confirming("ship", runs)]);
    const process = await start();
    expect(results[0]?.replan?.reason).toBe("needs a human");
    expect(process.awaiting).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });

  it("runs an approved call once although the round stops again for another call that waits", async () => {
    const runs: string[] = [];
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "pay", args: {}, id: "p" },
        { name: "ship", args: {}, id: "s" },
      ]),
      ScriptedModel.text("Paid and shipped"),
    ]);
    const pay = Tool.requireApproval(counted("pay", runs), { message: "Pay?" });
    const { platform, start } = setup(model, [pay, confirming("ship", runs)]);
    const waiting = await start();
    expect(waiting.awaiting.map((request) => request.kind)).toEqual(["approval"]);
    const again = await platform.respond(waiting.id, "r1", { approved: true });
    expect(again.status).toBe("waiting");
    expect(again.awaiting.map((request) => request.kind)).toEqual(["confirmation"]);
    expect(runs).toEqual(["pay"]);
    const done = await platform.respond(waiting.id, "r2", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(["pay", "ship"]);
    expect(outputs(model, 1)).toEqual([
      { type: "text", value: "pay done" },
      { type: "text", value: "ship confirmed" },
    ]);
  });

  it("keeps the calls settled before it when a resumed round stops again for an approval", async () => {
    // `raise` makes `ship` need approval; it runs in the first run, before `ship` waits to confirm.
    const runs: string[] = [];
    let limitRaised = false;
    const raise = Tool.create("raise", "Raises the order over the limit", () => {
      limitRaised = true;
      runs.push("raise");
      return ToolResult.text("raise done");
    });
    const ship = Tool.requireApproval(confirming("ship", runs), {
      message: "Ship?",
      when: () => limitRaised,
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "raise", args: {}, id: "r" },
        { name: "ship", args: {}, id: "s" },
      ]),
      ScriptedModel.text("Shipped"),
    ]);
    const { platform, start } = setup(model, [raise, ship]);
    const waiting = await start();
    expect(waiting.awaiting.map((request) => request.kind)).toEqual(["confirmation"]);
    const again = await platform.respond(waiting.id, "r1", { approved: true });
    expect(again.status).toBe("waiting");
    expect(again.awaiting.map((request) => request.kind)).toEqual(["approval"]);
    const done = await platform.respond(waiting.id, "r2", { approved: true });
    expect(done.status).toBe("completed");
    expect(runs).toEqual(["raise", "ship"]);
    expect(outputs(model, 1)).toEqual([
      { type: "text", value: "raise done" },
      { type: "text", value: "ship confirmed" },
    ]);
  });

  it("ends the process when a tool terminates the agent beside a replan in the same round", async () => {
    const stop = Tool.create("stop", "Stops the agent", () => {
      throw new TerminateAgent("out of scope");
    });
    const escalate = Tool.create("escalate", "Escalate", () => {
      throw new ReplanRequested("needs a human");
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "escalate", args: {}, id: "e" },
        { name: "stop", args: {}, id: "s" },
      ]),
      ScriptedModel.text("never requested"),
    ]);
    const { results, start } = setup(model, [escalate, stop]);
    const process = await start();
    expect(process.status).toBe("terminated");
    expect(results).toEqual([]);
  });

  it("ends the process when a tool of the round terminates the agent", async () => {
    const runs: string[] = [];
    const stop = Tool.create("stop", "Stops the agent", () => {
      throw new TerminateAgent("out of scope");
    });
    const model = new ScriptedModel([
      ScriptedModel.toolCalls([
        { name: "log", args: {}, id: "l" },
        { name: "stop", args: {}, id: "s" },
      ]),
      ScriptedModel.text("never requested"),
    ]);
    const { start } = setup(model, [counted("log", runs), stop]);
    const process = await start();
    expect(process.status).toBe("terminated");
    expect(model.requests).toHaveLength(1);
  });
});
