import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { domainType } from "../tool/type-token.js";
import { Agent } from "./agent.js";
import { agentFromClass, agentFromInstance, isAgentClass } from "./agent-classes.js";
import { achievesGoal, action, agent, condition } from "./agent-decorators.js";
import { AgentPlatform } from "./agent-platform.js";
import type { Blackboard } from "./blackboard.js";
import type { OperationContext } from "./operation-context.js";

const WorksToFind = domainType("WorksToFind", z.object({ composer: z.string() }));
const Performances = domainType("Performances", z.object({ titles: z.array(z.string()) }));
type WorksToFindValue = z.infer<typeof WorksToFind.schema>;

@agent({ name: "PerformanceFinder", description: "Finds performances" })
class PerformanceFinder {
  readonly prefix = "Op.";

  @achievesGoal({ description: "Performances found" })
  @action({ input: WorksToFind, output: Performances, description: "Searches the catalogue" })
  find(works: WorksToFindValue, context: OperationContext) {
    context.blackboard.setCondition("searched", true);
    return { titles: [`${this.prefix} 1 by ${works.composer}`] };
  }

  @condition({ name: "catalogueOpen" })
  isOpen(_blackboard: Blackboard) {
    return true;
  }
}

@agent({ description: "Unnamed" })
class DefaultName {
  @achievesGoal({ description: "Done", name: "finished" })
  @action({ output: String, cost: 3, pre: ["ready"], post: ["!ready"], canRerun: true })
  go() {
    return "done";
  }
}

class NotAnAgent {}

describe("agent", () => {
  it("names the agent after the class unless told otherwise", () => {
    expect(agentFromClass(PerformanceFinder).name).toBe("PerformanceFinder");
    expect(agentFromClass(DefaultName).name).toBe("DefaultName");
    expect(agentFromClass(DefaultName).description).toBe("Unnamed");
  });
});

describe("action", () => {
  it("records inputs, output, cost, pre, post and canRerun", () => {
    const [go] = agentFromClass(DefaultName).actions;
    expect(go).toMatchObject({ name: "go", cost: 3, pre: ["ready"], post: ["!ready"], canRerun: true });
    expect(go?.inputs).toEqual([]);
    expect(go?.output?.name).toBe("String");
    const [find] = agentFromClass(PerformanceFinder).actions;
    expect(find?.inputs.map((type) => type.name)).toEqual(["WorksToFind"]);
    expect(find?.description).toBe("Searches the catalogue");
  });

  it("runs the method on the instance with its inputs and the context", async () => {
    const platform = AgentPlatform.create({ models: {} });
    const process = await platform.runAgent(
      agentFromClass(PerformanceFinder),
      WorksToFind.create({ composer: "Mozart" }),
    );
    expect(process.status).toBe("completed");
    expect(process.result).toEqual({ titles: ["Op. 1 by Mozart"] });
    expect(process.blackboard.last("Performances")).toEqual({ titles: ["Op. 1 by Mozart"] });
    expect(process.blackboard.getCondition("searched")).toBe(true);
  });

  it("refuses a static method", () => {
    expect(() => {
      class Bad {
        @action({})
        static run() {}
      }
      return Bad;
    }).toThrow(/@action applies to instance methods only/);
  });
});

describe("achievesGoal", () => {
  it("makes a goal of the action's output and run", () => {
    const [goal] = agentFromClass(PerformanceFinder).goals;
    expect(goal).toMatchObject({
      name: "PerformanceFinder.find",
      description: "Performances found",
      preconditions: ["hasRun:find", "has:Performances"],
    });
    expect(agentFromClass(DefaultName).goals[0]?.name).toBe("finished");
  });

  it("requires @action on the same method", () => {
    @agent({ description: "Broken" })
    class Broken {
      @achievesGoal({ description: "Never" })
      orphan() {}
    }
    expect(() => agentFromClass(Broken)).toThrow(/@achievesGoal on 'orphan' of agent 'Broken' needs @action/);
  });
});

describe("condition", () => {
  it("registers a named condition evaluated on the instance", () => {
    const [open] = agentFromClass(PerformanceFinder).conditions;
    expect(open?.name).toBe("catalogueOpen");
  });
});

describe("isAgentClass", () => {
  it("tells decorated classes from others", () => {
    expect(isAgentClass(PerformanceFinder)).toBe(true);
    expect(isAgentClass(NotAnAgent)).toBe(false);
    expect(isAgentClass({})).toBe(false);
  });
});

describe("agentFromClass", () => {
  it("refuses a class without @agent, naming it", () => {
    expect(() => agentFromClass(NotAnAgent)).toThrow(ConfigurationError);
    expect(() => agentFromClass(NotAnAgent)).toThrow("Class NotAnAgent must be annotated with @agent");
  });

  it("refuses an agent without a goal", () => {
    @agent({ description: "Aimless" })
    class Aimless {
      @action({ output: String })
      wander() {
        return "";
      }
    }
    expect(() => agentFromClass(Aimless)).toThrow(/Agent 'Aimless' has no goal/);
  });
});

describe("agentFromClass on subclasses", () => {
  @agent({ name: "Base", description: "Drafts" })
  class Base {
    @action({ input: String, output: Number })
    measure(text: string) {
      return text.length;
    }

    @achievesGoal({ description: "Reported" })
    @action({ input: Number, output: Boolean })
    report(length: number) {
      return length > 3;
    }
  }

  it("inherits the superclass's actions and goals and adds its own", async () => {
    @agent({ name: "Extended", description: "Drafts and shouts" })
    class Extended extends Base {
      @action({ input: String, output: Number, cost: 0.5 })
      measureTwice(text: string) {
        return text.length * 2;
      }
    }
    const extended = agentFromClass(Extended);
    expect(extended.name).toBe("Extended");
    expect(extended.actions.map((each) => each.name)).toEqual(["measure", "report", "measureTwice"]);
    expect(extended.goals.map((goal) => goal.name)).toEqual(["Extended.report"]);
    const process = await AgentPlatform.create({ models: {} }).runAgent(extended, "ab");
    expect(process.history.map((entry) => entry.actionName)).toEqual(["measureTwice", "report"]);
    expect(process.result).toBe(true);
  });

  it("runs a subclass's override of a decorated method", async () => {
    @agent({ name: "Overriding", description: "Measures differently" })
    class Overriding extends Base {
      override measure(text: string) {
        return text.length + 100;
      }
    }
    const process = await AgentPlatform.create({ models: {} }).runAgent(agentFromClass(Overriding), "ab");
    expect(process.blackboard.last(Number)).toBe(102);
    expect(process.result).toBe(true);
  });

  it("refuses an @agent class with no actions and no goals, naming it", () => {
    @agent({ description: "Empty" })
    class Empty {}
    expect(() => agentFromClass(Empty)).toThrow(ConfigurationError);
    expect(() => agentFromClass(Empty)).toThrow(/Agent 'Empty' has no goal and no actions: add actions/);
  });
});

describe("agentFromInstance", () => {
  it("binds the actions to the given instance", async () => {
    const finder = new PerformanceFinder();
    Object.assign(finder, { prefix: "BWV" });
    const process = await AgentPlatform.create({ models: {} }).runAgent(
      agentFromInstance(finder),
      WorksToFind.create({ composer: "Bach" }),
    );
    expect(process.result).toEqual({ titles: ["BWV 1 by Bach"] });
  });

  it("refuses an instance of a plain class", () => {
    expect(() => agentFromInstance(new NotAnAgent())).toThrow(
      "Instance of NotAnAgent must be annotated with @agent",
    );
  });

  it("is what Agent.of uses for instances", () => {
    expect(Agent.of(new PerformanceFinder()).name).toBe("PerformanceFinder");
    expect(Agent.isAgentInstance(new PerformanceFinder())).toBe(true);
    expect(Agent.isAgentInstance(new NotAnAgent())).toBe(false);
  });
});
