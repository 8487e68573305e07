import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { AgentPlatform } from "./agent-platform.js";
import { ListOutputChannel } from "./output-channel.js";
import { ProcessOptions } from "./process-options.js";
import { Verbosity } from "./verbosity.js";

async function run(verbosity: Verbosity, options: { stream?: boolean } = {}) {
  const model = new ScriptedModel([ScriptedModel.toolCall("noop"), ScriptedModel.text("Hello!")]);
  const platform = AgentPlatform.create({ models: { main: model } });
  const channel = new ListOutputChannel();
  const process = await platform.runInProcess(
    async (context) => {
      const runner = context
        .ai()
        .withSystemPrompt("Be brief.")
        .withTool(Tool.create("noop", "Does nothing", () => ToolResult.text("ok")));
      if (!options.stream) return runner.generateText("Say hello");
      let text = "";
      for await (const delta of runner.streamText("Say hello")) text += delta;
      return text;
    },
    { processOptions: ProcessOptions.DEFAULT.withVerbosity(verbosity).withOutputChannel(channel) },
  );
  return { process, channel, model };
}

describe("Verbosity.showPrompts and showLlmResponses in an agent process", () => {
  it("send the prompt once and each reply to the process's output channel as logging events", async () => {
    const { process, channel } = await run(new Verbosity().withShowPrompts(true).withShowLlmResponses(true));
    expect(process.result).toBe("Hello!");
    const logged = channel.events.filter((event) => event.type === "logging");
    expect(logged.map((event) => [event.processId, event.level])).toEqual([
      [process.id, "info"],
      [process.id, "info"],
    ]);
    expect(channel.messages("logging")).toEqual([
      expect.stringMatching(/^Prompt:\n\[system\] .*Be brief\.[\s\S]*\n\[user\] Say hello$/),
      "LLM reply:\nHello!",
    ]);
  });

  it("send only what is asked for", async () => {
    const { channel } = await run(new Verbosity().withShowLlmResponses(true));
    expect(channel.messages("logging")).toEqual(["LLM reply:\nHello!"]);
  });

  it("report a streamed reply when its stream ends", async () => {
    const { channel, process } = await run(new Verbosity().withShowLlmResponses(true), { stream: true });
    expect(process.result).toBe("Hello!");
    expect(channel.messages("logging")).toEqual(["LLM reply:\nHello!"]);
  });

  it("send nothing for a quiet process", async () => {
    const { channel, process } = await run(Verbosity.DEFAULT);
    expect(process.result).toBe("Hello!");
    expect(channel.events).toEqual([]);
  });
});
