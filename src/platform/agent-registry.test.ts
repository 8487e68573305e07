import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { achievesGoal, action, agent } from "./agent-decorators.js";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";

const hello = defineAgent({
  name: "Hello",
  description: "Says hello",
  actions: [{ name: "greet", output: String, achievesGoal: { description: "Greeted" }, run: () => "hello" }],
});

@agent({ description: "Says bye" })
class Bye {
  @achievesGoal({ description: "Said bye" })
  @action({ output: String })
  bye() {
    return "bye";
  }
}

describe("AgentRegistry", () => {
  it("deploys definitions, classes and instances, in order", () => {
    const registry = new AgentRegistry();
    expect(registry.deploy(hello)).toBe(hello);
    expect(registry.deploy(Bye).name).toBe("Bye");
    expect(registry.names).toEqual(["Hello", "Bye"]);
    expect(registry.agents[0]).toBe(hello);
    expect(registry.get("Bye")?.description).toBe("Says bye");
  });

  it("accepts the same agent twice but not another with the same name", () => {
    const registry = new AgentRegistry();
    registry.deploy(hello);
    registry.deploy(hello);
    registry.deploy(new Bye());
    expect(() => registry.deploy(Bye)).toThrow(
      "An agent named 'Bye' is already deployed: deploy each agent once (a class deployed twice makes two instances), or give the other a different name (@agent({ name }) or defineAgent({ name })).",
    );
  });

  it("refuses something that is not an agent, saying what it got", () => {
    expect(() => new AgentRegistry().deploy(undefined as never)).toThrow(
      "Expected an agent, an @agent class or an instance of one, got undefined.",
    );
    expect(() => new AgentRegistry().deploy(null as never)).toThrow(ConfigurationError);
  });

  it("refuses a plain class", () => {
    class Plain {}
    expect(() => new AgentRegistry().deploy(Plain)).toThrow(ConfigurationError);
  });

  it("names the deployed agents when a required one is missing", () => {
    const registry = new AgentRegistry();
    registry.deploy(hello);
    expect(() => registry.require("Bye", "main")).toThrow(
      "No agent named 'Bye' is deployed on platform 'main'. Deployed agents: [Hello]",
    );
  });
});
