// A skill activated before a wait for a person stays activated after it, on a
// fresh facade (another worker): a repeat answers ALREADY LOADED.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { LoopWaits, WaitJournalEntry } from "../loop/loop-waits.js";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { Skill } from "./skill.js";
import { Skills } from "./skills.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Write" }] }];

describe("skills across a wait", () => {
  it("a skill activated before the wait answers ALREADY LOADED after it, on a fresh facade", async () => {
    const skills = () =>
      Skills.of(Skill.of({ name: "haiku", description: "Writes haiku.", instructions: "5-7-5" })).asTool();
    const gated = Tool.requireApproval(
      Tool.create("publish", "Publishes", () => ToolResult.text("published")),
    );
    const model = new ScriptedModel([
      ScriptedModel.toolCall("skills", { skill: "haiku" }, { id: "s1" }),
      ScriptedModel.toolCall("publish", {}, { id: "p1" }),
      ScriptedModel.toolCall("skills", { skill: "haiku" }, { id: "s2" }),
      ScriptedModel.text("done"),
    ]);
    const journal: (WaitJournalEntry | undefined)[] = [];
    let cursor = 0;
    let approved = false;
    const waits: LoopWaits = {
      enter: () => ({ index: cursor, entry: journal[cursor++] }),
      record: (index, entry) => {
        journal[index] = entry;
      },
      approvalAnswer: () => (approved ? { approved: true } : undefined),
      decide: () => (approved ? { approved: true } : "ask"),
    };
    await expect(runToolLoop({ model, prompt, tools: [skills(), gated], waits })).rejects.toThrow();
    approved = true;
    cursor = 0;
    const result = await runToolLoop({ model, prompt, tools: [skills(), gated], waits });
    expect(result.text).toBe("done");
    expect(JSON.stringify(model.requests[1]?.prompt.at(-1))).toContain("5-7-5");
    expect(JSON.stringify(model.requests[3]?.prompt.at(-1))).toContain("ALREADY LOADED");
  });
});
