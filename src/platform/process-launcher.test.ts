import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { achievesGoal, action, agent } from "./agent-decorators.js";
import { AgentPlatform } from "./agent-platform.js";
import { AgentProcess } from "./agent-process.js";
import { defineAgent } from "./define-agent.js";
import type { OperationContext } from "./operation-context.js";
import { ListOutputChannel } from "./output-channel.js";
import type { AgentProcessEvent } from "./process-event.js";
import { ProcessOptions } from "./process-options.js";
import { Verbosity } from "./verbosity.js";

function platform(model = new ScriptedModel()): AgentPlatform {
  return AgentPlatform.create({ models: { main: model } });
}

const echo = defineAgent({
  name: "Echo",
  description: "Echoes its input",
  actions: [
    {
      name: "echo",
      input: String,
      output: Number,
      achievesGoal: { description: "Echoed" },
      run: (text: string) => text.length,
    },
  ],
});

describe("launchFunction (through AgentPlatform.runInProcess)", () => {
  it("runs the function as the current process and completes with its return value", async () => {
    let seen: AgentProcess | undefined;
    const process = await platform().runInProcess((context) => {
      seen = AgentProcess.current();
      expect(context.process).toBe(seen);
      expect(context.action).toBeUndefined();
      return "result";
    });
    expect(seen).toBe(process);
    expect(process.status).toBe("completed");
    expect(process.result).toBe("result");
    expect(process.endedAt).toBeInstanceOf(Date);
    expect(AgentProcess.current()).toBeUndefined();
  });

  it("ends failed when the function throws, keeping the error", async () => {
    const error = new Error("nope");
    const process = await platform().runInProcess(() => {
      throw error;
    });
    expect(process).toMatchObject({ status: "failed", statusReason: "nope", failure: error });
  });

  it("gives each of 100 concurrent processes only its own process and blackboard", async () => {
    const p = platform();
    const leaks: string[] = [];
    const processes = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        p.runInProcess(async (context) => {
          context.blackboard.bind("index", index);
          for (let step = 0; step < 5; step++) {
            await delay((index * 7 + step) % 4);
            const current = AgentProcess.current();
            if (current !== context.process) leaks.push(`process ${index} saw another process`);
            if (current?.blackboard.get("index") !== index)
              leaks.push(`process ${index} saw another blackboard`);
            current?.blackboard.add(`${index}:${step}`);
          }
          return index;
        }),
      ),
    );
    expect(leaks).toEqual([]);
    processes.forEach((process, index) => {
      expect(process.result).toBe(index);
      expect(process.blackboard.all(String)).toEqual([0, 1, 2, 3, 4].map((step) => `${index}:${step}`));
    });
    expect(new Set(processes.map((process) => process.id)).size).toBe(100);
  });

  it("keeps 100 concurrent tool-calling interactions on one model in their own processes", async () => {
    const leaks: string[] = [];
    const model = new ScriptedModel(
      Array.from({ length: 100 * 4 }, () => (request: { prompt: readonly { role: string }[] }) => {
        const owner = AgentProcess.current()?.id;
        const step = request.prompt.filter((message) => message.role === "tool").length;
        return step < 3 ? ScriptedModel.toolCall("probe", { owner }) : ScriptedModel.text(`done ${owner}`);
      }),
    );
    const probe = Tool.create("probe", "Checks isolation", async (input, context) => {
      const { owner } = JSON.parse(input) as { owner: string };
      const current = AgentProcess.current();
      if (current?.id !== owner) leaks.push("process");
      if (context.get("owner") !== owner) leaks.push("context");
      if (current?.blackboard.get("owner") !== owner) leaks.push("blackboard");
      await delay(1);
      return ToolResult.text("ok");
    });
    const p = platform(model);
    const processes = await Promise.all(
      Array.from({ length: 100 }, () =>
        p.runInProcess(async (context) => {
          context.blackboard.bind("owner", context.process.id);
          return context
            .ai()
            .withTool(probe)
            .withToolCallContext({ owner: context.process.id })
            .generateText("go");
        }),
      ),
    );
    expect(leaks).toEqual([]);
    for (const process of processes) {
      expect(process.result).toBe(`done ${process.id}`);
      expect(process.toolStats.get("probe")?.calls).toBe(3);
      expect(process.llmInvocations).toBe(4);
    }
  });

  it("records LLM usage, models, tool statistics and events from prompt runners used inside", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("lookup", { q: "x" }, { usage: { inputTokens: 10, outputTokens: 5 } }),
      ScriptedModel.toolCall("lookup", { q: "y" }, { usage: { inputTokens: 12, outputTokens: 5 } }),
      ScriptedModel.text("done", { usage: { inputTokens: 20, outputTokens: 3 } }),
    ]);
    const contexts: ToolCallContext[] = [];
    const lookup = Tool.create("lookup", "Looks up", async (_input, context) => {
      contexts.push(context);
      return ToolResult.text("found");
    });
    const events: AgentProcessEvent[] = [];
    const options = ProcessOptions.DEFAULT.withToolCallContext({ tenantId: "acme" }).withListener((event) =>
      events.push(event),
    );
    const process = await platform(model).runInProcess(
      (context) => context.ai().withTool(lookup).generateText("go"),
      {
        processOptions: options,
      },
    );
    expect(process.status).toBe("completed");
    expect(process.result).toBe("done");
    expect(process.usage).toEqual({ inputTokens: 42, outputTokens: 13, totalTokens: 55 });
    expect(process.llmInvocations).toBe(3);
    expect(process.modelsUsed).toEqual([
      { name: "main", provider: "embabel-ts.scripted", modelId: "scripted", kind: "llm" },
    ]);
    expect(process.toolStats.get("lookup")).toMatchObject({ calls: 2, failures: 0 });
    expect(contexts.map((context) => context.get("tenantId"))).toEqual(["acme", "acme"]);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("process-started");
    expect(types.at(-1)).toBe("process-finished");
    expect(types.filter((type) => type === "llm-call-end")).toHaveLength(3);
    expect(types.filter((type) => type === "tool-call-end")).toHaveLength(2);
    expect(events.every((event) => event.processId === process.id)).toBe(true);
  });

  it("sends progress and messages to the output channel", async () => {
    const channel = new ListOutputChannel();
    const process = await platform().runInProcess(
      async (context) => {
        await context.sendProgress("Searching");
        await context.sendMessage("Found 3 results");
      },
      { processOptions: ProcessOptions.DEFAULT.withOutputChannel(channel) },
    );
    expect(channel.events).toEqual([
      { type: "progress", processId: process.id, message: "Searching" },
      { type: "message", processId: process.id, message: { role: "assistant", content: "Found 3 results" } },
    ]);
  });

  it("ignores a throwing listener", async () => {
    const options = ProcessOptions.DEFAULT.withListener(() => {
      throw new Error("listener bug");
    });
    const process = await platform().runInProcess(() => 1, { processOptions: options });
    expect(process.status).toBe("completed");
  });

  it("ends killed when the process is killed from outside", async () => {
    const process = await platform().runInProcess(async (context) => {
      context.process.kill("stop now");
      context.signal.throwIfAborted();
    });
    expect(process.status).toBe("killed");
    expect(process.statusReason).toBe("stop now");
  });

  it("records the parent, and a killed parent kills the child", async () => {
    const p = platform();
    let child: AgentProcess | undefined;
    const parent = await p.runInProcess(async (context) => {
      child = await p.runInProcess(
        async (inner) => {
          context.process.kill("parent stopped");
          inner.signal.throwIfAborted();
        },
        { parent: context.process },
      );
    });
    expect(child?.parentId).toBe(parent.id);
    expect(child?.status).toBe("killed");
  });

  it("counts a child's LLM usage in its parent, whose spent token budget stops the child", async () => {
    const model = new ScriptedModel([
      ScriptedModel.text("first", { usage: { inputTokens: 80, outputTokens: 40 } }),
      ScriptedModel.text("never sent"),
    ]);
    const p = platform(model);
    let child: AgentProcess | undefined;
    const parent = await p.runInProcess(
      async (context) => {
        child = await p.runInProcess(
          async (inner) => {
            await inner.ai().generateText("one");
            return inner.ai().generateText("two");
          },
          { parent: context.process },
        );
      },
      { processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 100 }) },
    );
    expect(child?.status).toBe("terminated");
    expect(child?.statusReason).toBe("Max tokens of 100 reached");
    expect(child?.usage.totalTokens).toBe(120);
    expect(parent.usage.totalTokens).toBe(120);
    expect(parent.llmInvocations).toBe(1);
    expect(model.requests).toHaveLength(1);
  });
});

describe("launchAgent (through AgentPlatform.runAgent)", () => {
  it("binds the input as 'it' and by its lower-camel type name", async () => {
    const process = await platform().runAgent(echo, "hello");
    expect(process.blackboard.get("it")).toBe("hello");
    expect(process.blackboard.get("string")).toBe("hello");
    expect(process.result).toBe(5);
    expect(process.agent).toBe(echo);
  });

  it("gives an action a context whose functions also work destructured", async () => {
    const channel = new ListOutputChannel();
    const model = new ScriptedModel([ScriptedModel.text("drafted")]);
    const writer = defineAgent({
      name: "Writer",
      description: "Drafts",
      actions: [
        {
          name: "draft",
          input: String,
          output: Number,
          achievesGoal: { description: "Drafted" },
          run: async (topic: string, { ai, sendProgress, blackboard, signal, action }) => {
            await sendProgress(`drafting ${topic} in ${action}`);
            const text = await ai().generateText(topic);
            blackboard.bind("draft", text);
            return signal.aborted ? -1 : text.length;
          },
        },
      ],
    });
    const process = await platform(model).runAgent(writer, "tea", {
      processOptions: ProcessOptions.DEFAULT.withOutputChannel(channel),
    });
    expect(process.status).toBe("completed");
    expect(process.result).toBe(7);
    expect(process.blackboard.get("draft")).toBe("drafted");
    // Functions are made when read; a Proxy over the context reads them too.
    let seen: OperationContext | undefined;
    await platform(new ScriptedModel([ScriptedModel.text("via proxy")])).runInProcess(async (context) => {
      seen = context;
      const proxied = new Proxy(context, {});
      expect(await proxied.ai().generateText("x")).toBe("via proxy");
    });
    expect(Object.isFrozen(seen)).toBe(true);
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    expect(channel.events).toContainEqual(
      expect.objectContaining({ type: "progress", message: "drafting tea in draft" }),
    );
  });

  it("fails the process with the error of an action that throws synchronously", async () => {
    const failing = defineAgent({
      name: "Failing",
      description: "Throws before returning anything",
      actions: [
        {
          name: "fail",
          input: String,
          output: Number,
          achievesGoal: { description: "Never" },
          run: () => {
            throw new Error("no way");
          },
        },
      ],
    });
    const process = await platform().runAgent(failing, "x");
    expect(process.status).toBe("failed");
    expect(process.statusReason).toBe("no way");
    expect(process.history.map((entry) => entry.outcome)).toEqual(["failed"]);
  });

  it("lists every model used in order of first use, and gives a fresh start Date at each read", async () => {
    const main = new ScriptedModel([ScriptedModel.text("a"), ScriptedModel.text("c")]);
    const other = new ScriptedModel([ScriptedModel.text("b")], { modelId: "other-model" });
    const p = AgentPlatform.create({ models: { main, other } });
    const process = await p.runInProcess(async (context) => {
      await context.ai().withLlm({ model: "main" }).generateText("1");
      await context.ai().withLlm({ model: "other" }).generateText("2");
      await context.ai().withLlm({ model: "main" }).generateText("3");
    });
    expect(process.modelsUsed.map((model) => `${model.name}:${model.modelId}`)).toEqual([
      "main:scripted",
      "other:other-model",
    ]);
    expect(process.llmInvocations).toBe(3);
    const started = process.startedAt;
    expect(started).toBeInstanceOf(Date);
    expect(process.startedAt).not.toBe(started);
    expect(process.startedAt.getTime()).toBe(started.getTime());
    expect(process.checkpoint().startedAt).toBe(started.getTime());
  });

  it("runs an @agent class or instance given directly, without deploying it", async () => {
    @agent({ name: "Shouter", description: "Shouts" })
    class Shouter {
      @achievesGoal({ description: "Shouted" })
      @action({ input: String, output: Number })
      shout(text: string) {
        return text.length * 10;
      }
    }
    const p = platform();
    expect((await p.runAgent(Shouter, "abc")).result).toBe(30);
    expect((await p.runAgent(new Shouter(), "ab")).result).toBe(20);
    expect(p.agents).toEqual([]);
  });

  it("runs a deployed agent by name and refuses an unknown name", async () => {
    const p = platform();
    p.deploy(echo);
    expect((await p.runAgent("Echo", "abc")).result).toBe(3);
    await expect(p.runAgent("Nope", "x")).rejects.toThrow(ConfigurationError);
    await expect(p.runAgent("Nope", "x")).rejects.toThrow(
      "No agent named 'Nope' is deployed on platform 'embabel'. Deployed agents: [Echo]",
    );
  });

  describe("with and without anything observing it", () => {
    const lookup = Tool.create("lookup", "Looks up", async (input) => {
      if (JSON.parse(input).q === "bad") return ToolResult.error("no such thing");
      return ToolResult.text("found");
    });
    const researcher = defineAgent({
      name: "Researcher",
      description: "Looks things up",
      actions: [
        {
          name: "research",
          input: String,
          output: Number,
          achievesGoal: { description: "Researched" },
          run: async (topic: string, context) =>
            (await context.ai().withTool(lookup).generateText(topic)).length,
        },
      ],
    });
    const run = (processOptions: ProcessOptions) => {
      const model = new ScriptedModel([
        ScriptedModel.toolCall("lookup", { q: "x" }, { usage: { inputTokens: 100, outputTokens: 10 } }),
        ScriptedModel.toolCall("lookup", { q: "bad" }, { usage: { inputTokens: 200, outputTokens: 20 } }),
        ScriptedModel.text("done", { usage: { inputTokens: 300, outputTokens: 30 } }),
      ]);
      const p = AgentPlatform.create({
        models: { main: model },
        prices: { scripted: { inputPerMillion: 1, outputPerMillion: 4 } },
      });
      return p.runAgent(researcher, "topic", { processOptions });
    };
    const accounting = (process: AgentProcess) => ({
      status: process.status,
      result: process.result,
      usage: process.usage,
      costUsd: process.costUsd,
      llmInvocations: process.llmInvocations,
      modelsUsed: process.modelsUsed,
      toolStats: [...process.toolStats].map(([name, stats]) => [name, stats.calls, stats.failures]),
      history: process.history.map((entry) => [entry.actionName, entry.outcome]),
      objects: process.blackboard.objects,
    });

    it("counts the same usage, cost, models, tool stats and history when nothing observes it", async () => {
      const events: AgentProcessEvent[] = [];
      const observed = await run(ProcessOptions.DEFAULT.withListener((event) => events.push(event)));
      const unobserved = await run(ProcessOptions.DEFAULT);
      expect(accounting(unobserved)).toEqual(accounting(observed));
      expect(accounting(unobserved)).toMatchObject({
        status: "completed",
        result: 4,
        usage: { inputTokens: 600, outputTokens: 60, totalTokens: 660 },
        costUsd: (600 * 1 + 60 * 4) / 1_000_000,
        llmInvocations: 3,
        toolStats: [["lookup", 2, 1]],
        history: [["research", "succeeded"]],
      });
      expect(unobserved.loopEventTypes).toEqual(new Set(["tool-call-end", "llm-call-retry"]));
      expect(observed.loopEventTypes).toBeUndefined();
    });

    it("gives a listener every event of the run, in order", async () => {
      const events: AgentProcessEvent[] = [];
      const process = await run(ProcessOptions.DEFAULT.withListener((event) => events.push(event)));
      expect(events.map((event) => event.type)).toEqual([
        "process-started",
        "object-added",
        "plan-formulated",
        "action-start",
        "llm-call-start",
        "llm-call-end",
        "tool-call-start",
        "tool-call-end",
        "llm-call-start",
        "llm-call-end",
        "tool-call-start",
        "tool-call-end",
        "llm-call-start",
        "llm-call-end",
        "object-added",
        "action-end",
        "goal-achieved",
        "process-finished",
      ]);
      expect(events.every((event) => event.processId === process.id)).toBe(true);
      expect(events[0]).toMatchObject({ type: "process-started", agent: "Researcher" });
      expect(events[1]).toMatchObject({ type: "object-added", typeName: "String", value: "topic" });
      expect(events[1]).not.toHaveProperty("action");
      expect(events[5]).toMatchObject({ type: "llm-call-end", costUsd: (100 + 40) / 1_000_000 });
      expect(events.at(-4)).toMatchObject({
        type: "object-added",
        action: "research",
        typeName: "Number",
        value: 4,
      });
      expect(events.at(-1)).toMatchObject({ type: "process-finished", status: "completed" });
    });

    it("reports every object added to the blackboard, by the action running or outside any, once", async () => {
      class Note {
        constructor(readonly text: string) {}
      }
      const jot = Tool.create("jot", "Notes something on the blackboard", async (input) => {
        AgentProcess.current()?.addObject(new Note(JSON.parse(input).text));
        return ToolResult.text("noted");
      });
      const noter = defineAgent({
        name: "Noter",
        description: "Takes notes",
        actions: [
          {
            name: "note",
            input: String,
            output: Number,
            achievesGoal: { description: "Noted" },
            run: async (topic: string, context) =>
              (await context.ai().withTool(jot).generateText(topic)).length,
          },
        ],
      });
      const model = new ScriptedModel([
        ScriptedModel.toolCall("jot", { text: "first" }),
        ScriptedModel.text("ok"),
      ]);
      const events: AgentProcessEvent[] = [];
      const options = ProcessOptions.DEFAULT.withListener((event) => events.push(event));
      const process = await platform(model).runAgent(noter, "tea", { processOptions: options });
      const added = events.filter((event) => event.type === "object-added");
      expect(added.map((event) => [event.action, event.typeName])).toEqual([
        [undefined, "String"],
        ["note", "Note"],
        ["note", "Number"],
      ]);
      expect(process.blackboard.objects).toEqual(["tea", new Note("first"), 2]);

      const outside: AgentProcessEvent[] = [];
      await platform().runInProcess(
        (context) => {
          context.blackboard.add(new Note("loose"));
        },
        { processOptions: ProcessOptions.DEFAULT.withListener((event) => outside.push(event)) },
      );
      expect(outside.filter((event) => event.type === "object-added")).toEqual([
        expect.objectContaining({ typeName: "Note", value: new Note("loose") }),
      ]);
      expect(outside.find((event) => event.type === "object-added")).not.toHaveProperty("action");
    });

    it("logs every event as a debug line when debug verbosity is on, with no listener", async () => {
      const channel = new ListOutputChannel();
      await run(
        ProcessOptions.DEFAULT.withVerbosity(new Verbosity().withDebug(true)).withOutputChannel(channel),
      );
      const lines = channel.events.filter((event) => event.type === "logging");
      expect(lines).toHaveLength(18);
      expect(lines[1]).toMatchObject({ message: "A String was added to the blackboard" });
    });
  });
});
