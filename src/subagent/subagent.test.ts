import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Agent } from "../platform/agent.js";
import { achievesGoal, action, agent } from "../platform/agent-decorators.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { AgentProcess } from "../platform/agent-process.js";
import { defineAgent } from "../platform/define-agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { Subagent } from "./subagent.js";

// The builders. What a call does (parsing, the child process, sharing,
// inheritance, failures) is in subagent-tool.test.ts.

const WorksToFind = domainType(
  "WorksToFind",
  z.object({ composers: z.array(z.string()).min(1), era: z.string(), maxResults: z.number().int() }),
);
type WorksToFind = z.output<typeof WorksToFind.schema>;
const PerformanceList = domainType("PerformanceList", z.object({ titles: z.array(z.string()) }));

@agent({ name: "PerformanceFinder", description: "Finds performances" })
class PerformanceFinder {
  @achievesGoal({ description: "Performances found" })
  @action({ input: WorksToFind, output: PerformanceList })
  find(works: WorksToFind) {
    return { titles: works.composers.map((composer) => `${composer}: Symphony`) };
  }
}

class NotAnAgent {}

/** A platform (with a model nothing calls) on which `agents` are deployed. */
function platformWith(...agents: (Agent | (new () => object))[]): AgentPlatform {
  const platform = AgentPlatform.create({ name: "test", models: { main: new ScriptedModel() } });
  for (const candidate of agents) platform.deploy(candidate);
  return platform;
}

const works: WorksToFind = { composers: ["Mozart", "Haydn"], era: "Classical", maxResults: 2 };

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

  it("makes an agent name with spaces a valid tool name, keeping its case", () => {
    const tool = Subagent.byName("Concert Assembler").consuming(WorksToFind);
    expect(tool.definition.name).toBe("Concert_Assembler");
    expect(tool.agentName).toBe("Concert Assembler");
  });

  it("rejects a blank name", () => {
    expect(() => Subagent.byName("")).toThrow("Agent name must not be blank");
    expect(() => Subagent.byName("   ")).toThrow("Agent name must not be blank");
  });

  it("fails a call in a process whose platform lacks the agent, listing the available ones", async () => {
    const tool = Subagent.byName("Ghost").consuming(WorksToFind);
    const platform = platformWith(PerformanceFinder);
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
    const platform = platformWith();
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
    const platform = platformWith();
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
    const platform = platformWith();
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
    const platform = platformWith();
    const process = await platform.runInProcess(() => tool.call(JSON.stringify(works)));
    expect((process.result as ToolResult).content).toBe('{"titles":["Servus, Mozart","Servus, Haydn"]}');
  });

  it("rejects an instance of a class without @agent", () => {
    expect(() => Subagent.ofAnnotatedInstance(new NotAnAgent())).toThrow(
      "Instance of NotAnAgent must be annotated with @agent",
    );
  });
});
