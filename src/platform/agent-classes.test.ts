import { describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { decoratorMetadataOf } from "../tool/decorator-metadata.js";
import { llmTool } from "../tool/llm-tool.js";
import { agentFromInstance, isAgentClass } from "./agent-classes.js";
import { achievesGoal, action, agent } from "./agent-decorators.js";

@agent({ name: "Greeter", description: "Greets" })
class Greeter {
  @achievesGoal({ description: "Greeted" })
  @action({ output: String })
  greet() {
    return "hello";
  }
}

class NotAnAgent {}

/** agent-classes.js as another copy of the package has it, or a bundle without the decorators: nothing recorded. */
async function fresh() {
  vi.resetModules();
  return import("./agent-classes.js");
}

describe("agentFromInstance", () => {
  it("builds the agent of an @agent instance with the reader @agent recorded", () => {
    const built = agentFromInstance(new Greeter());
    expect(built.name).toBe("Greeter");
    expect(built.actions.map((each) => each.name)).toEqual(["greet"]);
  });

  it("in a copy @agent never recorded into, builds it with the reader left on the class", async () => {
    const other = await fresh();
    expect(other.agentFromInstance).not.toBe(agentFromInstance);
    expect(other.isAgentClass(Greeter)).toBe(true);
    const built = other.agentFromClass(Greeter);
    expect(built.name).toBe("Greeter");
    expect(built.goals.map((goal) => goal.description)).toEqual(["Greeted"]);
  });

  it("in a copy @agent never recorded into, refuses an undecorated class or instance as ever", async () => {
    const other = await fresh();
    expect(other.isAgentClass(NotAnAgent)).toBe(false);
    expect(() => other.agentFromClass(NotAnAgent)).toThrow(
      new ConfigurationError("Class NotAnAgent must be annotated with @agent"),
    );
    expect(() => other.agentFromInstance(new NotAnAgent())).toThrow(
      new ConfigurationError("Instance of NotAnAgent must be annotated with @agent"),
    );
  });
});

describe("isAgentClass", () => {
  it("tells an @agent class from any other value", () => {
    expect([Greeter, NotAnAgent, new Greeter(), "Greeter"].map(isAgentClass)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("a class decorated by a copy that left no reader on it (0.1.0 left none)", () => {
  /** `type` as 0.1.0 left it: its decorators' options, no reader beside them. */
  function withoutReaders<T extends object>(type: T): T {
    const metadata = decoratorMetadataOf(type) as Record<symbol, unknown>;
    for (const name of ["embabel-ts.agent-reader", "embabel-ts.llm-tool-reader"])
      delete metadata[Symbol.for(name)];
    return type;
  }

  @agent({ name: "OldGreeter", description: "Greets the old way" })
  class OldGreeter {
    @achievesGoal({ description: "Greeted" })
    @action({ output: String })
    greet() {
      return "hello";
    }
  }
  withoutReaders(OldGreeter);

  class OldTools {
    @llmTool({ description: "Says hello" })
    hello() {
      return "hello";
    }
  }
  withoutReaders(OldTools);

  it("is not read by a copy that never decorated, until the CLI installs that copy's readers", async () => {
    vi.resetModules();
    const classes = await import("./agent-classes.js");
    const decorators = await import("./agent-decorators.js");
    expect(classes.isAgentClass(OldGreeter)).toBe(true);
    expect(() => classes.agentFromClass(OldGreeter)).toThrow(
      new ConfigurationError("Instance of OldGreeter must be annotated with @agent"),
    );
    decorators.installAgentClassReader();
    const built = classes.agentFromClass(OldGreeter);
    expect(built.name).toBe("OldGreeter");
    expect(built.actions.map((each) => each.name)).toEqual(["greet"]);
  });

  it("has no @llmTool methods for such a copy, until the CLI installs its readers", async () => {
    vi.resetModules();
    const tools = await import("../tool/instance-tools.js");
    const methodTools = await import("../tool/method-tools.js");
    expect(tools.safelyFromInstance(new OldTools())).toEqual([]);
    methodTools.installToolMethodReader();
    expect(tools.safelyFromInstance(new OldTools()).map((tool) => tool.definition.name)).toEqual(["hello"]);
  });
});
