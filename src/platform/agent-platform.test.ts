import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { LlmOptions } from "../llm/llm-options.js";
import { CoreToolGroups } from "../prompt/core-tool-groups.js";
import type { LlmInteractionCall } from "../prompt/llm-interaction-host.js";
import { PromptRunner } from "../prompt/prompt-runner.js";
import { ToolGroup } from "../prompt/tool-group.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { AmbientProcess } from "../tool/ambient-process.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
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

  it("runs a runner's interaction on the default model with the platform's tool groups", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("add", { a: 1, b: 2 }), ScriptedModel.text("3"));
    const add = Tool.create("add", "Adds", async () => ToolResult.text("3"));
    const platform = AgentPlatform.create({
      models: { main: model },
      toolGroups: [ToolGroup.of(CoreToolGroups.MATH_DESCRIPTION, [add])],
    });
    expect(await platform.ai().withToolGroup(CoreToolGroups.MATH).generateText("1+2?")).toBe("3");
    expect(model.toolNamesPerRequest).toEqual([["add"], ["add"]]);
  });

  it("uses the model mapped to the default role", async () => {
    const main = ScriptedModel.of(ScriptedModel.text("from main"));
    const other = ScriptedModel.of();
    const platform = AgentPlatform.create({ models: { other, main }, roles: { default: "main" } });
    expect(await platform.ai().generateText("hi")).toBe("from main");
    expect(other.requests).toHaveLength(0);
  });

  it("finds tool groups registered after the runner was made", async () => {
    const model = ScriptedModel.of(ScriptedModel.text("ok"));
    const platform = AgentPlatform.create({ models: { main: model } });
    const runner = platform.ai().withToolGroup("late");
    platform.registerToolGroup(
      ToolGroup.of({ role: "late", description: "d" }, [
        Tool.create("t", "t", async () => ToolResult.text("x")),
      ]),
    );
    await runner.generateText("x");
    expect(model.requests[0]?.toolNames).toEqual(["t"]);
  });

  it("uses the model of the role LlmOptions names, with its sampling settings", async () => {
    const main = ScriptedModel.of();
    const fast = ScriptedModel.of(ScriptedModel.text("quick"));
    const platform = AgentPlatform.create({
      models: { main, fast },
      roles: { default: "main", fast: "fast" },
    });
    const answer = await platform
      .ai()
      .withLlm(LlmOptions.withRole("fast").withTemperature(0.2))
      .generateText("hi");
    expect(answer).toBe("quick");
    expect(fast.requests[0]?.options.temperature).toBe(0.2);
    expect(main.requests).toHaveLength(0);
  });

  it("imports a model given by id only when a call needs it, saying which key to set", async () => {
    const platform = AgentPlatform.create({ models: { main: "openai:gpt-4.1" }, env: {} });
    await expect(platform.ai().generateText("hi")).rejects.toThrow(
      "Model 'openai:gpt-4.1' needs an API key: set the environment variable OPENAI_API_KEY.",
    );
  });

  it("reports each call's cost from its price table to the process the runner runs in", async () => {
    const calls: LlmInteractionCall[] = [];
    const process = {
      id: "p",
      blackboard: { add: (value: unknown) => value },
      toolCallContext: ToolCallContext.EMPTY,
      onLoopEvent: () => {},
      beforeLlmCall: () => {},
      recordLlmCall: (call: LlmInteractionCall) => calls.push(call),
    };
    const model = ScriptedModel.of(
      ScriptedModel.text("ok", { usage: { inputTokens: 1_000_000, outputTokens: 500_000 } }),
    );
    const platform = AgentPlatform.create({
      models: { main: model },
      prices: { scripted: { inputPerMillion: 1, outputPerMillion: 4 } },
    });
    await AmbientProcess.run(process, () => platform.ai().generateText("hi"));
    expect(calls).toEqual([expect.objectContaining({ modelName: "main", modelId: "scripted", costUsd: 3 })]);
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
