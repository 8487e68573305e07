import { describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
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
