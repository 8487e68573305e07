import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Agent } from "../platform/agent.js";
import { achievesGoal, action, agent } from "../platform/agent-decorators.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { AgentProcess } from "../platform/agent-process.js";
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
import { domainType } from "../tool/type-token.js";
import { Subagent } from "./subagent.js";
import { SubagentTool } from "./subagent-tool.js";

const WorksToFind = domainType(
  "WorksToFind",
  z.object({ composers: z.array(z.string()).min(1), era: z.string(), maxResults: z.number().int() }),
);
type WorksToFind = z.output<typeof WorksToFind.schema>;
const PerformanceList = domainType("PerformanceList", z.object({ titles: z.array(z.string()) }));
const Venue = domainType("Venue", z.object({ hall: z.string() }));
const Request = domainType("Request", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ text: z.string() }));

@agent({ name: "PerformanceFinder", description: "Finds performances" })
class PerformanceFinder {
  @achievesGoal({ description: "Performances found" })
  @action({ input: WorksToFind, output: PerformanceList })
  find(works: WorksToFind) {
    return { titles: works.composers.map((composer) => `${composer}: Symphony`) };
  }
}

class NotAnAgent {}

/** A parent whose one action lets the LLM call `tool` and answers with the LLM's text. */
function parentAgent(tool: Tool, name = "ConcertPlanner"): Agent {
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
          text: await context.ai().withTool(tool).generateText(request.text),
        }),
      },
    ],
  });
}

function setUp(steps: ScriptedStepInit[], ...agents: (Agent | (new () => object))[]) {
  const model = new ScriptedModel(steps);
  const platform = AgentPlatform.create({ name: "test", models: { main: model } });
  const deployed = agents.map((candidate) => platform.deploy(candidate));
  return { model, platform, deployed };
}

const works: WorksToFind = { composers: ["Mozart", "Haydn"], era: "Classical", maxResults: 2 };
const request = () => Request.create({ text: "Plan a concert" });

describe("Subagent.byName", () => {
  it("describes the tool without any process", () => {
    const tool = Subagent.byName("MyAgent").consuming(WorksToFind);
    expect(AgentProcess.current()).toBeUndefined();
    expect(tool.toString()).toBe("Subagent(name=MyAgent)");
    expect(tool.definition.name).toBe("MyAgent");
    expect(tool.definition.description).toBe("Delegate to agent 'MyAgent'");
    expect(tool.definition.inputSchema.jsonSchema).toEqual(WorksToFind.jsonSchema);
    expect(tool.metadata.returnDirect).toBe(false);
  });

  it("rejects a blank name", () => {
    expect(() => Subagent.byName("")).toThrow("Agent name must not be blank");
    expect(() => Subagent.byName("   ")).toThrow("Agent name must not be blank");
  });

  it("fails a call in a process whose platform lacks the agent, listing the available ones", async () => {
    const tool = Subagent.byName("Ghost").consuming(WorksToFind);
    const { platform } = setUp([], PerformanceFinder);
    const process = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    expect(process.status).toBe("failed");
    expect(ConfigurationError.isInstance(process.failure)).toBe(true);
    expect(process.statusReason).toBe(
      "Subagent 'Ghost' not found in platform test. Available agents: [PerformanceFinder]",
    );
  });
});

describe("Subagent.ofClass", () => {
  it("takes the name and description from @agent", () => {
    const tool = Subagent.ofClass(PerformanceFinder).consuming(WorksToFind);
    expect(tool.definition.name).toBe("PerformanceFinder");
    expect(tool.definition.description).toBe("Finds performances");
    expect(tool.toString()).toBe("Subagent(class=PerformanceFinder)");
  });

  it("rejects a class without @agent", () => {
    expect(() => Subagent.ofClass(NotAnAgent)).toThrow("Class NotAnAgent must be annotated with @agent");
  });

  it("runs the class's agent even when it is not deployed", async () => {
    const tool = Subagent.ofClass(PerformanceFinder).consuming(WorksToFind);
    const { platform } = setUp([]);
    const process = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    expect(process.result).toEqual(
      ToolResult.withArtifact('{"titles":["Mozart: Symphony","Haydn: Symphony"]}', {
        titles: ["Mozart: Symphony", "Haydn: Symphony"],
      }),
    );
  });

  it("consumes a class input type: the schema from its static zod schema, the input an instance", async () => {
    class Works {
      static readonly schema = z.object({ composers: z.array(z.string()) });
      declare readonly composers: string[];
      get count(): number {
        return this.composers.length;
      }
    }
    const counter = defineAgent({
      name: "Counter",
      description: "Counts composers",
      actions: [
        {
          name: "count",
          input: Works,
          output: PerformanceList,
          achievesGoal: { description: "Counted" },
          run: (works: Works) => ({ titles: [`${works.count} composers`] }),
        },
      ],
    });
    const tool = Subagent.ofInstance(counter).consuming(Works);
    expect(tool.definition.inputSchema.jsonSchema).toMatchObject({
      type: "object",
      properties: { composers: { type: "array" } },
    });
    const { platform } = setUp([]);
    const process = await platform.runInProcess(() => tool.call('{"composers":["Bach","Handel"]}'));
    expect((process.result as ToolResult).content).toBe('{"titles":["2 composers"]}');
  });

  it("rejects an input type that is not an object", () => {
    expect(() => Subagent.ofClass(PerformanceFinder).consuming(String)).toThrow(
      "The input type String of tool 'PerformanceFinder' must be an object type",
    );
  });
});

describe("Subagent.ofInstance", () => {
  it("uses an agent that is already built", async () => {
    const finder = defineAgent({
      name: "Finder",
      description: "Finds",
      actions: [
        {
          name: "find",
          input: WorksToFind,
          output: PerformanceList,
          achievesGoal: { description: "Found" },
          run: () => ({ titles: ["x"] }),
        },
      ],
    });
    const tool = Subagent.ofInstance(finder).consuming(WorksToFind);
    expect(tool.toString()).toBe("Subagent(agent=Finder)");
    expect(tool.definition.description).toBe("Finds");
    const { platform } = setUp([]);
    const process = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    expect((process.result as ToolResult).content).toBe('{"titles":["x"]}');
  });

  it("rejects something that is not an agent", () => {
    expect(() => Subagent.ofInstance({} as Agent)).toThrow(ConfigurationError);
  });
});

describe("Subagent.ofAnnotatedInstance", () => {
  it("runs the agent of that very instance", async () => {
    @agent({ name: "Greeter", description: "Greets" })
    class Greeter {
      constructor(private readonly greeting: string) {}
      @achievesGoal({ description: "Greeted" })
      @action({ input: WorksToFind, output: PerformanceList })
      greet(input: WorksToFind) {
        return { titles: input.composers.map((composer) => `${this.greeting}, ${composer}`) };
      }
    }
    const tool = Subagent.ofAnnotatedInstance(new Greeter("Servus")).consuming(WorksToFind);
    expect(tool.toString()).toBe("Subagent(instance=Greeter)");
    const { platform } = setUp([]);
    const process = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    expect((process.result as ToolResult).content).toBe('{"titles":["Servus, Mozart","Servus, Haydn"]}');
  });

  it("rejects an instance of a class without @agent", () => {
    expect(() => Subagent.ofAnnotatedInstance(new NotAnAgent())).toThrow(
      "Instance of NotAnAgent must be annotated with @agent",
    );
  });
});

describe("SubagentTool.call", () => {
  it("requires a parent process", async () => {
    const tool = Subagent.ofClass(PerformanceFinder).consuming(WorksToFind);
    await expect(tool.call(JSON.stringify(works))).rejects.toThrow(
      "No parent agent process found. Subagent must be called within an agent context.",
    );
  });

  it("answers bad JSON with an error result", async () => {
    const tool = Subagent.ofClass(PerformanceFinder).consuming(WorksToFind);
    const { platform } = setUp([], PerformanceFinder);
    const process = await platform.runInProcess(() => tool.call('{"composers": '));
    const result = process.result as ToolResult;
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Error parsing subagent input: invalid JSON \(/);
  });

  it("answers input that does not fit the type with an error result naming the field", async () => {
    const tool = Subagent.ofClass(PerformanceFinder).consuming(WorksToFind);
    const { platform } = setUp([], PerformanceFinder);
    const process = await platform.runInProcess(() =>
      tool.call(JSON.stringify({ composers: [], era: "Classical", maxResults: 2 })),
    );
    const result = process.result as ToolResult;
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Error parsing subagent input: Invalid WorksToFind: composers: /);
  });

  it("reports a failing child as an error result with its status and reason", async () => {
    const failing = defineAgent({
      name: "Failing",
      description: "Fails",
      actions: [
        {
          name: "fail",
          input: WorksToFind,
          output: PerformanceList,
          achievesGoal: { description: "Never" },
          run: () => {
            throw new Error("catalogue offline");
          },
        },
      ],
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
    const needsVenue = defineAgent({
      name: "NeedsVenue",
      description: "Needs a venue",
      actions: [
        {
          name: "book",
          input: [WorksToFind, Venue],
          output: PerformanceList,
          achievesGoal: { description: "Booked" },
          run: () => ({ titles: [] }),
        },
      ],
    });
    const { platform } = setUp([], needsVenue);
    const tool = Subagent.byName("NeedsVenue").consuming(WorksToFind);
    const process = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    const result = process.result as ToolResult;
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^Subagent 'NeedsVenue' stuck: .*Venue/);
  });

  it("passes an aborted signal on: the child is killed and the call rejects", async () => {
    const { platform } = setUp([], PerformanceFinder);
    const tool = Subagent.byName("PerformanceFinder").consuming(WorksToFind);
    const controller = new AbortController();
    controller.abort(new Error("user cancelled"));
    const finished: string[] = [];
    const process = await platform.runInProcess(
      () => tool.call(JSON.stringify(works), ToolCallContext.EMPTY, { signal: controller.signal }),
      {
        processOptions: ProcessOptions.DEFAULT.withListener((event) => {
          if (event.type === "process-finished") finished.push(`${event.status}: ${event.reason}`);
        }),
      },
    );
    expect(finished[0]).toBe("killed: user cancelled");
    expect(process.statusReason).toBe("user cancelled");
  });
});

describe("Subagent in an agent's tool loop (scripted model, end to end)", () => {
  const subagent = () => Subagent.ofClass(PerformanceFinder).consuming(WorksToFind);

  it("runs the agent as a child process and gives the LLM its result", async () => {
    const { model, platform, deployed } = setUp(
      [ScriptedModel.toolCall("PerformanceFinder", works), ScriptedModel.text("Two symphonies.")],
      parentAgent(subagent()),
      PerformanceFinder,
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
      parentAgent(subagent()),
      PerformanceFinder,
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
    const tool = Subagent.ofClass(PerformanceFinder).consuming(Polite);
    const { model, platform, deployed } = setUp(
      [ScriptedModel.toolCall("PerformanceFinder", { text: "give" }), ScriptedModel.text("Sorry.")],
      parentAgent(tool),
      PerformanceFinder,
    );
    const parent = await platform.runAgent(deployed[0] as Agent, request());
    expect(parent.status).toBe("completed");
    expect(model.requests[1]?.toolResults[0]?.output).toEqual({
      type: "error-text",
      value: "Error: Error parsing subagent input: Invalid Polite: text: must say please",
    });
  });

  it("lets the child read the parent's objects and gives the parent the child's objects afterwards", async () => {
    const seenByChild: unknown[] = [];
    const finder = defineAgent({
      name: "VenueFinder",
      description: "Finds performances for the parent's venue",
      actions: [
        {
          name: "find",
          input: [WorksToFind, Venue],
          output: PerformanceList,
          achievesGoal: { description: "Found" },
          run: (input: WorksToFind, venue: { hall: string }, context: OperationContext) => {
            seenByChild.push(venue);
            context.blackboard.bind("shortlist", { titles: ["bound by the child"] });
            return { titles: input.composers.map((composer) => `${composer} at ${venue.hall}`) };
          },
        },
      ],
    });
    const venue = Venue.create({ hall: "Musikverein" });
    const parentDefinition = defineAgent({
      name: "Parent",
      description: "Parent",
      actions: [
        {
          name: "plan",
          input: Request,
          output: Answer,
          achievesGoal: { description: "Planned" },
          run: async (input: { text: string }, context: OperationContext) => {
            context.blackboard.add(venue);
            const tool = Subagent.byName("VenueFinder").consuming(WorksToFind);
            const text = await context.ai().withTool(tool).generateText(input.text);
            return { text };
          },
        },
      ],
    });
    const { platform, deployed } = setUp(
      [ScriptedModel.toolCall("VenueFinder", works), ScriptedModel.text("done")],
      parentDefinition,
      finder,
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

  it("runs the child with the parent's verbosity, listeners, output channel and tool-call context", async () => {
    let child: AgentProcess | undefined;
    let childContext: ToolCallContext | undefined;
    const probe = Tool.create("probe", "Records its context", (_input, context) => {
      childContext = context;
      return ToolResult.text("ok");
    });
    const finder = defineAgent({
      name: "Inheritor",
      description: "Checks what it inherited",
      actions: [
        {
          name: "find",
          input: WorksToFind,
          output: PerformanceList,
          achievesGoal: { description: "Found" },
          run: async (_works: WorksToFind, context: OperationContext) => {
            child = context.process;
            await context.sendProgress("child working");
            await context.ai().withTool(probe).generateText("probe");
            return { titles: [] };
          },
        },
      ],
    });
    const tool = Subagent.byName("Inheritor").consuming(WorksToFind);
    const parentDefinition = defineAgent({
      name: "Parent",
      description: "Parent",
      actions: [
        {
          name: "plan",
          input: Request,
          output: Answer,
          achievesGoal: { description: "Planned" },
          run: async (input: { text: string }, context: OperationContext) => ({
            text: await context
              .ai()
              .withTool(tool)
              .withToolCallContext({ requestId: "r-1" })
              .generateText(input.text),
          }),
        },
      ],
    });
    const { platform, deployed } = setUp(
      [
        ScriptedModel.toolCall("Inheritor", works),
        ScriptedModel.toolCall("probe", {}),
        ScriptedModel.text("probed"),
        ScriptedModel.text("done"),
      ],
      parentDefinition,
      finder,
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

  it("keeps a quiet parent's child quiet", async () => {
    let childVerbosity: Verbosity | undefined;
    const finder = defineAgent({
      name: "Quiet",
      description: "Quiet",
      actions: [
        {
          name: "find",
          input: WorksToFind,
          output: PerformanceList,
          achievesGoal: { description: "Found" },
          run: (_works: WorksToFind, context: OperationContext) => {
            childVerbosity = context.processOptions.verbosity;
            return { titles: [] };
          },
        },
      ],
    });
    const { platform, deployed } = setUp(
      [ScriptedModel.toolCall("Quiet", works), ScriptedModel.text("done")],
      parentAgent(Subagent.byName("Quiet").consuming(WorksToFind)),
      finder,
    );
    await platform.runAgent(deployed[0] as Agent, request());
    expect(childVerbosity).toBe(Verbosity.DEFAULT);
  });

  it("is a SubagentTool, so it composes with decorators like any tool", () => {
    const tool = Subagent.byName("PerformanceFinder").consuming(WorksToFind);
    expect(tool).toBeInstanceOf(SubagentTool);
    expect(tool.withNote("Use for performances").definition.description).toBe(
      "Delegate to agent 'PerformanceFinder'. Use for performances",
    );
  });
});
