import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { PromptRunner } from "../prompt/prompt-runner.js";
import { ToolGroup } from "../prompt/tool-group.js";
import { AgentPlatform, createAgentPlatform } from "./agent-platform.js";

function model(): MockLanguageModelV3 {
  return new MockLanguageModelV3({ modelId: "mock" });
}

describe("AgentPlatform", () => {
  it("hands out prompt runners from ai()", () => {
    const platform = AgentPlatform.create({ models: { main: model() } });
    expect(platform.ai()).toBeInstanceOf(PromptRunner);
  });

  it("is named embabel unless told otherwise", () => {
    expect(AgentPlatform.create({ models: {} }).name).toBe("embabel");
    expect(AgentPlatform.create({ models: {}, name: "travel" }).name).toBe("travel");
  });

  it("registers the tool groups it was given, by role", () => {
    const web = ToolGroup.of({ role: "web", description: "Web tools" }, []);
    const platform = AgentPlatform.create({ models: {}, toolGroups: [web] });
    expect(platform.toolGroups.get("web")).toBe(web);
    expect(platform.toolGroups.roles()).toEqual(["web"]);
  });

  it("refuses a second tool group with a role already registered", () => {
    const first = ToolGroup.of({ role: "web", description: "Web tools" }, [], { name: "brave" });
    const second = ToolGroup.of({ role: "web", description: "Web tools" }, [], { name: "google" });
    const platform = AgentPlatform.create({ models: {}, toolGroups: [first] });
    expect(() => platform.registerToolGroup(second)).toThrow(ConfigurationError);
    expect(() => platform.registerToolGroup(second)).toThrow(/'web' is already registered \(by 'brave'\)/);
  });

  it("fails a call on a role no model is mapped to, naming the role", async () => {
    const platform = AgentPlatform.create({ models: { a: model(), b: model() } });
    await expect(platform.ai().generateText("hi")).rejects.toThrow(/No model for role 'default'/);
  });
});

describe("createAgentPlatform", () => {
  it("is AgentPlatform.create", () => {
    const platform = createAgentPlatform({ models: {}, name: "x" });
    expect(platform).toBeInstanceOf(AgentPlatform);
    expect(platform.name).toBe("x");
  });
});
