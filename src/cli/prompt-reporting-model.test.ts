import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../platform/agent-platform.js";
import { ListOutputChannel } from "../platform/output-channel.js";
import { ProcessOptions } from "../platform/process-options.js";
import { Verbosity } from "../platform/verbosity.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { withPromptReporting } from "./prompt-reporting-model.js";

async function run(verbosity: Verbosity) {
  const scripted = new ScriptedModel([ScriptedModel.text("Hello!")]);
  const model = withPromptReporting(scripted);
  const platform = AgentPlatform.create({ models: { main: model } });
  const channel = new ListOutputChannel();
  const process = await platform.runInProcess(
    (context) => context.ai().withSystemPrompt("Be brief.").generateText("Say hello"),
    { processOptions: ProcessOptions.DEFAULT.withVerbosity(verbosity).withOutputChannel(channel) },
  );
  return { process, channel, model, scripted };
}

describe("withPromptReporting", () => {
  it("keeps the wrapped model's identity", () => {
    const scripted = new ScriptedModel();
    const model = withPromptReporting(scripted);
    expect([model.provider, model.modelId, model.specificationVersion]).toEqual([
      scripted.provider,
      scripted.modelId,
      "v3",
    ]);
  });

  it("sends the prompt and the reply to the output channel when the verbosity asks", async () => {
    const { process, channel } = await run(new Verbosity().withShowPrompts(true).withShowLlmResponses(true));
    expect(process.result).toBe("Hello!");
    expect(channel.messages("logging")).toEqual([
      expect.stringMatching(/^Prompt:\n\[system\] .*Be brief\.[\s\S]*\n\[user\] Say hello$/),
      "LLM reply:\nHello!",
    ]);
  });

  it("sends nothing for a quiet process", async () => {
    const { channel, process } = await run(Verbosity.DEFAULT);
    expect(process.result).toBe("Hello!");
    expect(channel.events).toEqual([]);
  });

  it("passes calls outside any process straight through", async () => {
    const scripted = new ScriptedModel([ScriptedModel.text("direct")]);
    const result = await withPromptReporting(scripted).doGenerate({
      prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
    expect(result.content).toEqual([{ type: "text", text: "direct" }]);
    expect(scripted.requests).toHaveLength(1);
  });
});
