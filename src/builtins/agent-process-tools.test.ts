import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { defineAction, defineAgent } from "../platform/define-agent.js";
import { ProcessOptions } from "../platform/process-options.js";
import { HashEmbeddingModel } from "../testing/hash-embedding-model.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { Tool } from "../tool/tool.js";
import { domainType } from "../tool/type-token.js";
import { AgentProcessTools, NO_AGENT_PROCESS } from "./agent-process-tools.js";

const facade = AgentProcessTools.create();

function tool(name: string): Tool {
  const found = facade.innerTools.find((inner) => inner.definition.name === name);
  if (!found) throw new Error(`no inner tool ${name}`);
  return found;
}

/** Calls the inner tool `name` inside `process` and returns its text. */
async function ask(process: AgentProcess, name: string): Promise<string> {
  const result = await process.runWithin(() => tool(name).call("{}"));
  expect(result.kind).toBe("text");
  return result.content;
}

/** A function process on `platform` that calls `body`, then stays available to inspect. */
async function inProcess(
  platform: AgentPlatform,
  body: (process: AgentProcess) => Promise<void> = async () => {},
  processOptions = ProcessOptions.DEFAULT,
): Promise<AgentProcess> {
  return platform.runInProcess(async (context) => body(context.process), { processOptions });
}

const Question = domainType("Question", z.object({ text: z.string() }));
const Draft = domainType("Draft", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ text: z.string(), status: z.string() }));

describe("AgentProcessTools.create", () => {
  it("is the agent_process facade with the specification's description, notes and six tools in order", () => {
    expect(facade.definition.name).toBe("agent_process");
    expect(facade.definition.description).toBe(
      "Access information about the current agent process including status, budget, cost, and history. Invoke to see available operations.",
    );
    expect(facade.childToolUsageNotes).toBe(
      "Use process_status for current state and runtime. Use process_budget to check limits. Use process_cost to see spending.",
    );
    expect(facade.innerTools.map((inner) => [inner.definition.name, inner.definition.description])).toEqual([
      ["process_status", "Get the current process status, ID, running time, and goal information"],
      ["process_budget", "Get the budget limits and current usage against those limits"],
      ["process_cost", "Get detailed cost and token usage information"],
      ["process_history", "Get the history of actions taken in this process"],
      ["process_tools_stats", "Get statistics about tool usage in this process"],
      ["process_models", "Get information about which models (LLM and embedding) have been used"],
    ]);
    for (const inner of facade.innerTools) {
      expect(inner.definition.inputSchema.jsonSchema).toMatchObject({ type: "object", properties: {} });
    }
  });

  it("answers every tool outside a process with the no-process text", async () => {
    for (const inner of facade.innerTools) {
      const result = await inner.call("{}");
      expect(result).toMatchObject({ kind: "text", content: NO_AGENT_PROCESS });
    }
    expect(NO_AGENT_PROCESS).toBe("No agent process available. These tools require an active agent context.");
  });
});

describe("process_status", () => {
  it("reports id, status, running time, no goal and no parent for a function process", async () => {
    const platform = AgentPlatform.create({ models: {} });
    let text = "";
    const process = await inProcess(platform, async (self) => {
      text = await ask(self, "process_status");
    });
    const lines = text.split("\n");
    expect(lines[0]).toBe(`Process ID: ${process.id}`);
    expect(lines[1]).toBe("Status: RUNNING");
    expect(lines[2]).toMatch(/^Running time: \d+ms$/);
    expect(lines.slice(3)).toEqual(["No goal (utility process)", "Parent ID: none (root process)"]);
  });

  it("names the goal of an agent process and the parent of a child process", async () => {
    const platform = AgentPlatform.create({ models: {} });
    let status = "";
    const agent = defineAgent({
      name: "Answerer",
      description: "Answers",
      actions: [
        defineAction({
          name: "answer",
          input: Question,
          output: Answer,
          achievesGoal: { description: "Answered" },
          run: async (question, context) => {
            status = await ask(context.process, "process_status");
            return { text: question.text, status };
          },
        }),
      ],
    });
    const parent = await inProcess(platform, async (self) => {
      await platform.runAgent(agent, Question.create({ text: "q" }), { parent: self });
    });
    expect(status).toContain("\nGoal: Answerer.answer\n");
    expect(status.endsWith(`\nParent ID: ${parent.id}`)).toBe(true);
  });

  it("reports a finished process's status in capitals", async () => {
    const process = await inProcess(AgentPlatform.create({ models: {} }));
    expect(process.status).toBe("completed");
    expect((await ask(process, "process_status")).split("\n")[1]).toBe("Status: COMPLETED");
  });
});

describe("process_budget", () => {
  it("reports cost, token and action limits with used and remaining", async () => {
    const model = new ScriptedModel([
      ScriptedModel.text("hi", { usage: { inputTokens: 1200, outputTokens: 300 } }),
    ]);
    const platform = AgentPlatform.create({
      models: { default: model },
      prices: { scripted: { inputPerMillion: 1000, outputPerMillion: 2000 } },
    });
    let text = "";
    await inProcess(
      platform,
      async (self) => {
        await platform.ai().generateText("hello");
        text = await ask(self, "process_budget");
      },
      ProcessOptions.DEFAULT.withBudget({ cost: 2, tokens: 1_000_000, actions: 50 }),
    );
    expect(text).toBe(
      [
        "Budget Status:",
        "",
        "Cost limit: $2.0000",
        "  Used: $1.8000",
        "  Remaining: $0.2000",
        "",
        "Token limit: 1,000,000",
        "  Used: 1,500",
        "  Remaining: 998,500",
        "",
        "Action limit: 50",
        "  Used: 0",
        "  Remaining: 50",
      ].join("\n"),
    );
  });

  it("counts actions run against the action limit", async () => {
    const platform = AgentPlatform.create({ models: {} });
    let budget = "";
    const agent = defineAgent({
      name: "TwoSteps",
      description: "Drafts then answers",
      actions: [
        defineAction({ name: "draft", input: Question, output: Draft, run: (q) => ({ text: q.text }) }),
        defineAction({
          name: "answer",
          input: Draft,
          output: Answer,
          achievesGoal: { description: "Answered" },
          run: async (draft, context) => {
            budget = await ask(context.process, "process_budget");
            return { text: draft.text, status: "" };
          },
        }),
      ],
    });
    await platform.runAgent(agent, Question.create({ text: "q" }), {
      processOptions: ProcessOptions.DEFAULT.withBudget({ actions: 10 }),
    });
    expect(budget.split("\n").slice(-3)).toEqual(["Action limit: 10", "  Used: 1", "  Remaining: 9"]);
  });
});

describe("process_cost", () => {
  it("counts LLM and embedding calls, their cost and tokens", async () => {
    const model = new ScriptedModel([
      ScriptedModel.text("one", { usage: { inputTokens: 1000, outputTokens: 200 } }),
      ScriptedModel.text("two", { usage: { inputTokens: 500, outputTokens: 50 } }),
    ]);
    const embedder = new HashEmbeddingModel({
      modelId: "text-embedding-3-small",
      provider: "openai.embedding",
    });
    const platform = AgentPlatform.create({
      models: { default: model },
      embeddingModels: { default: embedder },
      prices: { scripted: { inputPerMillion: 2, outputPerMillion: 8 } },
    });
    let text = "";
    await inProcess(platform, async (self) => {
      await platform.ai().generateText("a");
      await platform.ai().generateText("b");
      await platform.runInProcess(async (context) => context.embed(["three small words", "two words"]), {
        parent: self,
      });
      text = await ask(self, "process_cost");
    });
    // 1500 × $2/M + 250 × $8/M = $0.005; 5 embedding tokens × $0.02/M = $0.0000001.
    expect(text).toBe(
      [
        "Cost and Usage:",
        "",
        "Total cost: $0.005000",
        "LLM invocations: 2",
        "Embedding invocations: 1",
        "",
        "Tokens used:",
        "  Prompt tokens: 1,505",
        "  Completion tokens: 250",
        "  Total tokens: 1,755",
      ].join("\n"),
    );
  });

  it("reports zeros before any call", async () => {
    let text = "";
    await inProcess(AgentPlatform.create({ models: {} }), async (self) => {
      text = await ask(self, "process_cost");
    });
    expect(text).toContain("Total cost: $0.000000\nLLM invocations: 0\nEmbedding invocations: 0\n");
    expect(text.endsWith("  Total tokens: 0")).toBe(true);
  });
});

describe("process_history", () => {
  it("says no action ran yet in a function process", async () => {
    let text = "";
    await inProcess(AgentPlatform.create({ models: {} }), async (self) => {
      text = await ask(self, "process_history");
    });
    expect(text).toBe("No actions have been executed yet.");
  });

  it("numbers the actions run, with their durations", async () => {
    const agent = defineAgent({
      name: "TwoSteps",
      description: "Drafts then answers",
      actions: [
        defineAction({
          name: "draft",
          input: Question,
          output: Draft,
          run: async (q) => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            return { text: q.text };
          },
        }),
        defineAction({
          name: "answer",
          input: Draft,
          output: Answer,
          achievesGoal: { description: "Answered" },
          run: (draft) => ({ text: draft.text, status: "" }),
        }),
      ],
    });
    const process = await AgentPlatform.create({ models: {} }).runAgent(
      agent,
      Question.create({ text: "q" }),
    );
    const lines = (await ask(process, "process_history")).split("\n");
    expect(lines.slice(0, 2)).toEqual(["Action history (2 action(s)):", ""]);
    expect(lines[2]).toMatch(/^1\. draft \(\d+ms\)$/);
    expect(lines[3]).toMatch(/^2\. answer \(\d+ms\)$/);
    expect(lines).toHaveLength(4);
  });
});

describe("process_tools_stats", () => {
  it("says no tool was called yet", async () => {
    let text = "";
    await inProcess(AgentPlatform.create({ models: {} }), async (self) => {
      text = await ask(self, "process_tools_stats");
    });
    expect(text).toBe("No tools have been called yet.");
  });
});

describe("process_models", () => {
  it("says no model was used yet", async () => {
    let text = "";
    await inProcess(AgentPlatform.create({ models: {} }), async (self) => {
      text = await ask(self, "process_models");
    });
    expect(text).toBe("No models have been used yet.");
  });

  it("lists language and embedding models in order of first use", async () => {
    const model = new ScriptedModel([ScriptedModel.text("a"), ScriptedModel.text("b")], {
      modelId: "gpt-4.1",
    });
    const platform = AgentPlatform.create({
      models: { default: model },
      embeddingModels: { vectors: new HashEmbeddingModel() },
      embeddingRoles: { default: "vectors" },
    });
    const process = await platform.runInProcess(async (context) => {
      await context.ai().generateText("a");
      await context.embed(["x"]);
      await context.ai().generateText("b");
      return ask(context.process, "process_models");
    });
    expect(process.result).toBe(
      ["Models used (2):", "", "- gpt-4.1 (embabel-ts.scripted)", "- hash-embedding (embabel-ts.hash)"].join(
        "\n",
      ),
    );
    expect(process.modelsUsed.map((used) => [used.name, used.kind])).toEqual([
      ["default", "llm"],
      ["vectors", "embedding"],
    ]);
  });
});
