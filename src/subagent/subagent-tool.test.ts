import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runToolLoop } from "../loop/tool-loop.js";
import type { Agent } from "../platform/agent.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { defineAgent } from "../platform/define-agent.js";
import type { OperationContext } from "../platform/operation-context.js";
import { ListOutputChannel } from "../platform/output-channel.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ProcessOptions } from "../platform/process-options.js";
import { Verbosity } from "../platform/verbosity.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStepInit } from "../testing/scripted-step.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType, type TypeLike } from "../tool/type-token.js";
import { Subagent } from "./subagent.js";
import { SubagentTool } from "./subagent-tool.js";

const WorksToFind = domainType(
  "WorksToFind",
  z.object({ composers: z.array(z.string()).min(1), era: z.string(), maxResults: z.number().int() }),
);
type WorksToFind = z.output<typeof WorksToFind.schema>;
const PerformanceList = domainType("PerformanceList", z.object({ titles: z.array(z.string()) }));
type PerformanceList = z.output<typeof PerformanceList.schema>;
const Venue = domainType("Venue", z.object({ hall: z.string() }));
const Request = domainType("Request", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ text: z.string() }));

type ChildRun = (...args: never[]) => PerformanceList | Promise<PerformanceList>;

/** A one-action agent reaching its goal from `input`: the subagent under test. */
function childAgent(name: string, run: ChildRun, input: TypeLike | TypeLike[] = WorksToFind): Agent {
  return defineAgent({
    name,
    description: `${name} (a child)`,
    actions: [{ name: "find", input, output: PerformanceList, achievesGoal: { description: "Found" }, run }],
  });
}

const titlesOf = (works: WorksToFind): PerformanceList => ({
  titles: works.composers.map((composer) => `${composer}: Symphony`),
});

/** A parent whose one action runs `body` (an LLM call with tools, typically) and answers with its text. */
function parentAgent(
  name: string,
  body: (request: { text: string }, context: OperationContext) => Promise<string>,
): Agent {
  return defineAgent({
    name,
    description: "Plans concerts",
    actions: [
      {
        name: "plan",
        input: Request,
        output: Answer,
        achievesGoal: { description: "Planned" },
        run: async (request: { text: string }, context: OperationContext) => ({
          text: await body(request, context),
        }),
      },
    ],
  });
}

/** A parent that lets the LLM call `tool` and answers with the LLM's text. */
const callingParent = (tool: Tool, name = "ConcertPlanner") =>
  parentAgent(name, (request, context) => context.ai().withTool(tool).generateText(request.text));

function setUp(steps: ScriptedStepInit[], ...agents: Agent[]) {
  const model = new ScriptedModel(steps);
  const platform = AgentPlatform.create({ name: "test", models: { main: model } });
  const deployed = agents.map((candidate) => platform.deploy(candidate));
  return { model, platform, deployed };
}

const works: WorksToFind = { composers: ["Mozart", "Haydn"], era: "Classical", maxResults: 2 };
const request = () => Request.create({ text: "Plan a concert" });
const finder = () => childAgent("PerformanceFinder", titlesOf);
const finderTool = () => Subagent.byName("PerformanceFinder").consuming(WorksToFind);

describe("SubagentTool.call", () => {
  it("requires a parent process", async () => {
    await expect(finderTool().call(JSON.stringify(works))).rejects.toThrow(
      "No parent agent process found. Subagent must be called within an agent context.",
    );
  });

  it("answers bad JSON with an error result", async () => {
    const { platform } = setUp([], finder());
    const process = await platform.runInProcess(() => finderTool().call('{"composers": '));
    const result = process.result as ToolResult;
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Error parsing subagent input: invalid JSON \(/);
  });

  it("answers input that does not fit the type with an error result naming the field", async () => {
    const { platform } = setUp([], finder());
    const process = await platform.runInProcess(() =>
      finderTool().call(JSON.stringify({ composers: [], era: "Classical", maxResults: 2 })),
    );
    const result = process.result as ToolResult;
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Error parsing subagent input: Invalid WorksToFind: composers: /);
  });

  it("returns a completed child's result as text and as the artifact", async () => {
    const { platform } = setUp([], finder());
    const process = await platform.runInProcess(() => finderTool().call(JSON.stringify(works)));
    expect(process.result).toEqual(
      ToolResult.withArtifact('{"titles":["Mozart: Symphony","Haydn: Symphony"]}', titlesOf(works)),
    );
  });

  it("binds the parsed input in the child as `it` and as `worksToFind`, and leaves both off the parent", async () => {
    let bound: unknown[] = [];
    const reader = childAgent("Reader", (works: WorksToFind, context: OperationContext) => {
      bound = [context.blackboard.get("it"), context.blackboard.get("worksToFind")];
      return titlesOf(works);
    });
    const { platform } = setUp([], reader);
    const tool = Subagent.byName("Reader").consuming(WorksToFind);
    const parent = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    expect(bound).toEqual([works, works]);
    expect(parent.blackboard.get("worksToFind")).toBeUndefined();
    expect(parent.blackboard.last(PerformanceList)).toEqual(titlesOf(works));
  });

  it("reports a failing child as an error result with its status and reason", async () => {
    const failing = childAgent("Failing", () => {
      throw new Error("catalogue offline");
    });
    const { platform } = setUp([], failing);
    const tool = Subagent.byName("Failing").consuming(WorksToFind);
    const process = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    expect(process.result).toMatchObject({
      kind: "error",
      content: "Subagent 'Failing' failed: catalogue offline",
    });
  });

  it("reports a stuck child as an error result naming the unmet condition", async () => {
    const needsVenue = childAgent("NeedsVenue", () => ({ titles: [] }), [WorksToFind, Venue]);
    const { platform } = setUp([], needsVenue);
    const tool = Subagent.byName("NeedsVenue").consuming(WorksToFind);
    const process = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    const result = process.result as ToolResult;
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Subagent 'NeedsVenue' stuck: .*Venue/);
  });

  it("passes an aborted signal on: the child is killed and the call rejects", async () => {
    const { platform } = setUp([], finder());
    const controller = new AbortController();
    controller.abort(new Error("user cancelled"));
    const finished: string[] = [];
    const process = await platform.runInProcess(
      () => finderTool().call(JSON.stringify(works), ToolCallContext.EMPTY, { signal: controller.signal }),
      {
        processOptions: ProcessOptions.DEFAULT.withListener((event) => {
          if (event.type === "process-finished") finished.push(`${event.status}: ${event.reason}`);
        }),
      },
    );
    expect(finished[0]).toBe("killed: user cancelled");
    expect(process.statusReason).toBe("user cancelled");
  });

  it("kills a running child when the call's signal aborts, and rejects", async () => {
    const controller = new AbortController();
    let childProcess: AgentProcess | undefined;
    const slow = childAgent("Slow", async (works: WorksToFind, context: OperationContext) => {
      childProcess = context.process;
      controller.abort(new Error("user cancelled"));
      await new Promise((resolve) => setTimeout(resolve, 5));
      return titlesOf(works);
    });
    const { platform } = setUp([], slow);
    const tool = Subagent.byName("Slow").consuming(WorksToFind);
    const process = await platform.runInProcess(() =>
      tool.call(JSON.stringify(works), ToolCallContext.EMPTY, { signal: controller.signal }),
    );
    expect(childProcess?.status).toBe("killed");
    expect(process.status).not.toBe("completed");
    expect(process.statusReason).toBe("user cancelled");
  });

  it("stops a child whose LLM calls spend the parent's token budget, and says so as an error result", async () => {
    const spender = childAgent("Spender", async (works: WorksToFind, context: OperationContext) => {
      await context.ai().generateText("one");
      await context.ai().generateText("two");
      return titlesOf(works);
    });
    const { model, platform } = setUp(
      [
        ScriptedModel.text("first", { usage: { inputTokens: 80, outputTokens: 40 } }),
        ScriptedModel.text("never"),
      ],
      spender,
    );
    const tool = Subagent.byName("Spender").consuming(WorksToFind);
    const parent = await platform.runInProcess(() => tool.call(JSON.stringify(works)), {
      processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 100 }),
    });
    expect(model.requests).toHaveLength(1);
    expect(parent.usage.totalTokens).toBe(120);
    expect((parent.result as ToolResult).kind).toBe("error");
    expect((parent.result as ToolResult).content).toBe(
      "Subagent 'Spender' terminated: Max tokens of 100 reached",
    );
  });

  it("kills a running child when the parent process is killed, and rejects with the parent's reason", async () => {
    let parentProcess: AgentProcess | undefined;
    let childProcess: AgentProcess | undefined;
    const doomed = childAgent("Doomed", async (works: WorksToFind, context: OperationContext) => {
      childProcess = context.process;
      parentProcess?.kill("parent stopped");
      await new Promise((resolve) => setTimeout(resolve, 5));
      return titlesOf(works);
    });
    const { platform } = setUp([], doomed);
    const tool = Subagent.byName("Doomed").consuming(WorksToFind);
    const parent = await platform.runInProcess((context) => {
      parentProcess = context.process;
      return tool.call(JSON.stringify(works));
    });
    expect(childProcess?.status).toBe("killed");
    expect(parent.status).toBe("killed");
    expect(parent.statusReason).toBe("parent stopped");
    expect(parent.blackboard.count(PerformanceList)).toBe(0);
  });
});

describe("SubagentTool in an agent's tool loop (scripted model, end to end)", () => {
  it("runs the agent as a child process and gives the LLM its result", async () => {
    const { model, platform, deployed } = setUp(
      [ScriptedModel.toolCall("PerformanceFinder", works), ScriptedModel.text("Two symphonies.")],
      callingParent(finderTool()),
      finder(),
    );
    const events: AgentProcessEvent[] = [];
    const parent = await platform.runAgent(deployed[0] as Agent, request(), {
      processOptions: ProcessOptions.DEFAULT.withListener((event) => events.push(event)),
    });
    expect(parent.status).toBe("completed");
    expect(parent.result).toEqual({ text: "Two symphonies." });
    expect(model.requests[0]?.toolNames).toEqual(["PerformanceFinder"]);
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: '{"titles":["Mozart: Symphony","Haydn: Symphony"]}',
    });
    const childStart = events.find(
      (event) => event.type === "process-started" && event.processId !== parent.id,
    );
    expect(childStart).toMatchObject({ agent: "PerformanceFinder", parentId: parent.id });
  });

  it("answers malformed arguments in-band without starting the child, and the LLM recovers", async () => {
    const { model, platform, deployed } = setUp(
      [
        ScriptedModel.toolCall("PerformanceFinder", '{"composers": ["Mozart"'),
        ScriptedModel.toolCall("PerformanceFinder", works),
        ScriptedModel.text("Recovered."),
      ],
      callingParent(finderTool()),
      finder(),
    );
    const started: string[] = [];
    const parent = await platform.runAgent(deployed[0] as Agent, request(), {
      processOptions: ProcessOptions.DEFAULT.withListener((event) => {
        if (event.type === "process-started") started.push(event.agent ?? "");
      }),
    });
    expect(parent.status).toBe("completed");
    const first = model.requests[1]?.toolResults[0]?.output;
    expect(first?.type).toBe("error-text");
    expect(JSON.stringify(first)).toContain("not valid JSON");
    expect(started).toEqual(["ConcertPlanner", "PerformanceFinder"]);
    expect(parent.result).toEqual({ text: "Recovered." });
  });

  it("answers input the type rejects with the subagent's parse error, in-band", async () => {
    const Polite = domainType(
      "Polite",
      z.object({ text: z.string().refine((text) => text.includes("please"), "must say please") }),
    );
    const tool = Subagent.byName("PerformanceFinder").consuming(Polite);
    const { model, platform, deployed } = setUp(
      [ScriptedModel.toolCall("PerformanceFinder", { text: "give" }), ScriptedModel.text("Sorry.")],
      callingParent(tool),
      finder(),
    );
    const parent = await platform.runAgent(deployed[0] as Agent, request());
    expect(parent.status).toBe("completed");
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: "Error: Error parsing subagent input: Invalid Polite: text: must say please",
    });
  });

  it("tells the LLM in-band that the child failed, and the parent goes on", async () => {
    const failing = childAgent("Failing", () => {
      throw new Error("catalogue offline");
    });
    const tool = Subagent.byName("Failing").consuming(WorksToFind);
    const { model, platform, deployed } = setUp(
      [ScriptedModel.toolCall("Failing", works), ScriptedModel.text("The catalogue is offline.")],
      callingParent(tool),
      failing,
    );
    const parent = await platform.runAgent(deployed[0] as Agent, request());
    expect(parent.status).toBe("completed");
    expect(JSON.stringify(model.requests[1]?.toolResults[0]?.output)).toContain(
      "Subagent 'Failing' failed: catalogue offline",
    );
    expect(parent.result).toEqual({ text: "The catalogue is offline." });
  });

  it("lets the child read the parent's objects and gives the parent the child's objects afterwards", async () => {
    const seenByChild: unknown[] = [];
    const venueFinder = childAgent(
      "VenueFinder",
      (input: WorksToFind, venue: { hall: string }, context: OperationContext) => {
        seenByChild.push(venue);
        context.blackboard.bind("shortlist", { titles: ["bound by the child"] });
        return { titles: input.composers.map((composer) => `${composer} at ${venue.hall}`) };
      },
      [WorksToFind, Venue],
    );
    const venue = Venue.create({ hall: "Musikverein" });
    const parentDefinition = parentAgent("Parent", (input, context) => {
      context.blackboard.add(venue);
      const tool = Subagent.byName("VenueFinder").consuming(WorksToFind);
      return context.ai().withTool(tool).generateText(input.text);
    });
    const { platform, deployed } = setUp(
      [ScriptedModel.toolCall("VenueFinder", works), ScriptedModel.text("done")],
      parentDefinition,
      venueFinder,
    );
    const parent = await platform.runAgent(deployed[0] as Agent, request());
    expect(parent.status).toBe("completed");
    expect(seenByChild).toEqual([venue]);
    expect(parent.blackboard.last(PerformanceList)).toEqual({
      titles: ["Mozart at Musikverein", "Haydn at Musikverein"],
    });
    expect(parent.blackboard.get("shortlist")).toEqual({ titles: ["bound by the child"] });
    expect(parent.blackboard.count(WorksToFind)).toBe(0);
    expect(parent.blackboard.count(Venue)).toBe(1);
  });

  it("shares nothing from a child that failed", async () => {
    const failing = childAgent("Failing", (_works: WorksToFind, context: OperationContext) => {
      context.blackboard.bind("draft", { titles: ["half done"] });
      throw new Error("catalogue offline");
    });
    const { platform, deployed } = setUp(
      [ScriptedModel.toolCall("Failing", works), ScriptedModel.text("done")],
      callingParent(Subagent.byName("Failing").consuming(WorksToFind)),
      failing,
    );
    const parent = await platform.runAgent(deployed[0] as Agent, request());
    expect(parent.status).toBe("completed");
    expect(parent.blackboard.get("draft")).toBeUndefined();
  });

  it("runs a subagent inside a subagent: each level is the child of the one above, objects flow up", async () => {
    const inner = childAgent("Inner", (works: WorksToFind, context: OperationContext) => {
      context.blackboard.bind("deepest", { titles: ["from the inner agent"] });
      return titlesOf(works);
    });
    const middleTool = Subagent.byName("Middle").consuming(Request);
    const innerTool = Subagent.byName("Inner").consuming(WorksToFind);
    const middle = parentAgent("Middle", (input, context) =>
      context.ai().withTool(innerTool).generateText(input.text),
    );
    const { model, platform, deployed } = setUp(
      [
        ScriptedModel.toolCall("Middle", { text: "ask the inner agent" }),
        ScriptedModel.toolCall("Inner", works),
        ScriptedModel.text("inner answered"),
        ScriptedModel.text("middle answered"),
      ],
      callingParent(middleTool, "Top"),
      middle,
      inner,
    );
    const started = new Map<string, { id: string; parentId: string | undefined }>();
    const top = await platform.runAgent(deployed[0] as Agent, request(), {
      processOptions: ProcessOptions.DEFAULT.withListener((event) => {
        if (event.type === "process-started") {
          started.set(event.agent ?? "", { id: event.processId, parentId: event.parentId });
        }
      }),
    });
    expect(top.status).toBe("completed");
    expect(top.result).toEqual({ text: "middle answered" });
    expect(started.get("Middle")?.parentId).toBe(top.id);
    expect(started.get("Inner")?.parentId).toBe(started.get("Middle")?.id);
    expect(model.requests[2]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: '{"titles":["Mozart: Symphony","Haydn: Symphony"]}',
    });
    expect(model.requests[3]?.toolResults[0]?.output).toEqual({
      type: "text",
      value: '{"text":"inner answered"}',
    });
    expect(top.blackboard.get("deepest")).toEqual({ titles: ["from the inner agent"] });
    expect(top.blackboard.last(PerformanceList)).toEqual(titlesOf(works));
  });

  it("runs two calls of one parallel batch concurrently, each as its own child, results in call order", async () => {
    let running = 0;
    let mostAtOnce = 0;
    // Each child finishes only once both have started: run one after the other, neither would finish.
    let bothStarted!: () => void;
    const bothHaveStarted = new Promise<void>((resolve) => {
      bothStarted = resolve;
    });
    const slow = childAgent("Slow", async (works: WorksToFind) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      if (running === 2) bothStarted();
      await bothHaveStarted;
      running -= 1;
      return titlesOf(works);
    });
    const tool = Subagent.byName("Slow").consuming(WorksToFind);
    const bach = { ...works, composers: ["Bach"] };
    const { model, platform } = setUp(
      [
        ScriptedModel.toolCalls([
          { name: "Slow", args: works },
          { name: "Slow", args: bach },
        ]),
        ScriptedModel.text("both found"),
      ],
      slow,
    );
    const children = new Set<string>();
    const parent = await platform.runInProcess(
      async () => {
        const loop = await runToolLoop({
          model,
          prompt: [{ role: "user", content: [{ type: "text", text: "find both" }] }],
          tools: [tool],
          parallelToolCalls: true,
        });
        return loop.text;
      },
      {
        processOptions: ProcessOptions.DEFAULT.withListener((event) => {
          if (event.type === "process-started" && event.parentId) children.add(event.processId);
        }),
      },
    );
    expect(parent.result).toBe("both found");
    expect(mostAtOnce).toBe(2);
    expect(children.size).toBe(2);
    expect(model.requests[1]?.toolResults.map((result) => result.output)).toEqual([
      { type: "text", value: '{"titles":["Mozart: Symphony","Haydn: Symphony"]}' },
      { type: "text", value: '{"titles":["Bach: Symphony"]}' },
    ]);
    expect(parent.blackboard.all(PerformanceList)).toEqual([titlesOf(works), titlesOf(bach)]);
  });

  it("runs the child with the parent's verbosity, listeners, output channel and tool-call context", async () => {
    let child: AgentProcess | undefined;
    let childContext: ToolCallContext | undefined;
    const probe = Tool.create("probe", "Records its context", (_input, context) => {
      childContext = context;
      return ToolResult.text("ok");
    });
    const inheritor = childAgent("Inheritor", async (_works: WorksToFind, context: OperationContext) => {
      child = context.process;
      await context.sendProgress("child working");
      await context.ai().withTool(probe).generateText("probe");
      return { titles: [] };
    });
    const tool = Subagent.byName("Inheritor").consuming(WorksToFind);
    const parentDefinition = parentAgent("Parent", (input, context) =>
      context.ai().withTool(tool).withToolCallContext({ requestId: "r-1" }).generateText(input.text),
    );
    const { platform, deployed } = setUp(
      [
        ScriptedModel.toolCall("Inheritor", works),
        ScriptedModel.toolCall("probe", {}),
        ScriptedModel.text("probed"),
        ScriptedModel.text("done"),
      ],
      parentDefinition,
      inheritor,
    );
    const verbosity = new Verbosity().withShowPrompts(true).withShowLlmResponses(true);
    const channel = new ListOutputChannel();
    const listened = new Set<string>();
    const options = ProcessOptions.DEFAULT.withVerbosity(verbosity)
      .withOutputChannel(channel)
      .withToolCallContext({ tenant: "acme" })
      .withContextId("conversation-7")
      .withListener((event) => listened.add(event.processId));
    const parent = await platform.runAgent(deployed[0] as Agent, request(), { processOptions: options });
    expect(parent.status).toBe("completed");
    expect(child?.processOptions.verbosity).toBe(verbosity);
    expect(child?.processOptions.outputChannel).toBe(channel);
    expect(child?.processOptions.contextId).toBe("conversation-7");
    expect(child?.processOptions.listeners).toEqual(options.listeners);
    expect(child?.parentId).toBe(parent.id);
    expect(listened).toEqual(new Set([parent.id, child?.id]));
    expect(channel.events).toContainEqual({
      type: "progress",
      processId: child?.id,
      message: "child working",
    });
    expect(childContext?.get("tenant")).toBe("acme");
    expect(childContext?.get("requestId")).toBe("r-1");
    expect(childContext?.loopId()).toBeDefined();
    expect(child?.blackboard.parent).toBe(parent.blackboard);
  });

  it("is a SubagentTool, so it composes with decorators like any tool", () => {
    const tool = finderTool();
    expect(tool).toBeInstanceOf(SubagentTool);
    expect(tool.withNote("Use for performances").definition.description).toBe(
      "Delegate to agent 'PerformanceFinder'. Use for performances",
    );
  });
});
