import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentPlatform } from "../platform/agent-platform.js";
import { LlmReference } from "../prompt/llm-reference.js";
import { ScriptedModel } from "../testing/index.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { unfoldingReference } from "./unfolding-reference.js";
import { UnfoldingTool } from "./unfolding-tool.js";

/** Both a reference (a system-prompt contribution) and a source of tools, like the chapter's Memory. */
class Memory implements LlmReference {
  readonly name = "Memory";
  readonly description = "What the user told us before";
  notes(): string {
    return "Recall before you answer.";
  }
  tools(): readonly Tool[] {
    return Tool.fromInstance(this);
  }

  @llmTool({ description: "Recalls facts about a topic", input: z.object({ topic: z.string() }) })
  recall({ topic }: { topic: string }): string {
    return `${topic}: likes tea`;
  }

  @llmTool({ description: "Remembers a fact" })
  remember(): string {
    return "remembered";
  }
}

describe("unfoldingReference (LlmReference.withUnfolding)", () => {
  it("offers the reference as one facade that unfolds into its prefixed tools, keeping the system prompt", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("memory", {}),
      ScriptedModel.toolCall("memory_recall", { topic: "drinks" }),
      ScriptedModel.text("You like tea."),
    );
    const platform = AgentPlatform.create({ models: { default: model } });
    const answer = await platform
      .ai()
      .withReference(unfoldingReference(new Memory()))
      .generateText("What do I like?");
    expect(answer).toBe("You like tea.");
    expect(model.toolNamesPerRequest).toEqual([
      ["memory"],
      ["memory", "memory_recall", "memory_remember", "memory_context"],
      ["memory", "memory_recall", "memory_remember", "memory_context"],
    ]);
    const system = model.requests[0]?.prompt[0];
    expect(system).toMatchObject({
      role: "system",
      content: expect.stringContaining("Notes: Recall before you answer."),
    });
    expect(model.requests[0]?.tools[0]?.description).toBe("What the user told us before");
    expect(model.requests[2]?.toolResults[0]?.output).toEqual({ type: "text", value: "drinks: likes tea" });
  });

  it("passes the facade options, offers nothing for a reference without tools, and is idempotent", async () => {
    const reference = unfoldingReference(new Memory(), { childToolUsageNotes: "Recall first." });
    const [facade] = await reference.tools();
    expect(UnfoldingTool.isUnfoldingTool(facade)).toBe(true);
    expect((facade as UnfoldingTool).childToolUsageNotes).toBe("Recall first.");
    expect(unfoldingReference(reference)).toBe(reference);
    const empty = unfoldingReference(LlmReference.of("Empty", "Nothing", []));
    expect(await empty.tools()).toEqual([]);
    expect([reference.name, reference.description, reference.notes()]).toEqual([
      "Memory",
      "What the user told us before",
      "Recall before you answer.",
    ]);
  });
});
