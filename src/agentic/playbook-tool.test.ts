import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { OperationContext } from "../platform/operation-context.js";
import { ProcessOptions } from "../platform/process-options.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedStepInit } from "../testing/scripted-step.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { PlaybookTool } from "./playbook-tool.js";

const Document = domainType("Document", z.object({ body: z.string() }));
const UserProfile = domainType("UserProfile", z.object({ user: z.string() }));

function tool(name: string, result: ToolResult = ToolResult.text(`${name} done`)): Tool & { calls: number } {
  const created = Tool.create(name, `The ${name} tool`, () => {
    created.calls += 1;
    return result;
  }) as Tool & { calls: number };
  created.calls = 0;
  return created;
}

/** Runs an outer loop offering `playbook` (called by the first step) inside a process; returns the model. */
async function run(
  playbook: Tool,
  nestedSteps: ScriptedStepInit[],
  setUp?: (context: OperationContext) => void,
): Promise<ScriptedModel> {
  const model = new ScriptedModel([
    ScriptedModel.toolCall(playbook.definition.name, { topic: "tides" }),
    ...nestedSteps,
    ScriptedModel.text("outer done"),
  ]);
  const platform = AgentPlatform.create({ models: { main: model } });
  const process = await platform.runInProcess(async (context) => {
    setUp?.(context);
    await context.ai().withTool(playbook).generateText("Research tides");
  });
  if (process.status !== "completed") throw new Error(`${process.status}: ${process.statusReason}`);
  return model;
}

function descriptionOf(model: ScriptedModel, request: number, name: string): string | undefined {
  return model.requests[request]?.tools.find((candidate) => candidate.name === name)?.description;
}

function resultText(model: ScriptedModel, request: number): string | undefined {
  const output = model.requests[request]?.toolResults[0]?.output;
  return output && (output.type === "text" || output.type === "error-text") ? output.value : undefined;
}

describe("PlaybookTool", () => {
  it("declares every tool from the start; a locked one's description ends with what to do first", async () => {
    const search = tool("search");
    const analyze = tool("analyze");
    const playbook = PlaybookTool.create("researcher", "Research and analyze topics")
      .withTools(search)
      .withTool(analyze)
      .unlockedBy(search);
    const model = await run(playbook, [
      ScriptedModel.toolCall("search", {}),
      ScriptedModel.toolCall("analyze", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(model.requests[1]?.toolNames).toEqual(["search", "analyze"]);
    expect(descriptionOf(model, 1, "analyze")).toBe(
      "The analyze tool\n\nThis tool is not yet available. You must first use: search",
    );
    expect(descriptionOf(model, 2, "analyze")).toBe("The analyze tool");
    expect(analyze.calls).toBe(1);
  });

  it("sends a locked tool's definition as the same object while its lock is unchanged (computed once)", async () => {
    const [search, other, analyze] = [tool("search"), tool("other"), tool("analyze")];
    const playbook = PlaybookTool.create("researcher", "Research")
      .withTools(search, other)
      .withTool(analyze)
      .unlockedBy(search);
    const model = await run(playbook, [
      ScriptedModel.toolCall("other", {}),
      ScriptedModel.text("inner done"),
    ]);
    const sent = (request: number) => model.requests[request]?.tools.find((sent) => sent.name === "analyze");
    expect(sent(1)?.description).toContain("This tool is not yet available");
    expect(sent(2)).toBe(sent(1));
  });

  it("answers a locked call with the locked message and records nothing", async () => {
    const search = tool("search");
    const analyze = tool("analyze");
    const summarize = tool("summarize");
    const playbook = PlaybookTool.create("researcher", "Research")
      .withTools(search)
      .withTool(analyze)
      .unlockedBy(search)
      .withTool(summarize)
      .unlockedBy(analyze);
    const model = await run(playbook, [
      ScriptedModel.toolCall("analyze", {}),
      ScriptedModel.toolCall("summarize", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toBe("This tool is not yet available. You must first use: search");
    expect(analyze.calls).toBe(0);
    // analyze was not recorded, so summarize is still locked behind it.
    expect(resultText(model, 3)).toBe("This tool is not yet available. You must first use: analyze");
  });

  it("lists only the prerequisites not yet called (AND)", async () => {
    const [search, fetch, report] = [tool("search"), tool("fetch"), tool("report")];
    const playbook = PlaybookTool.create("p", "P")
      .withTools(search, fetch)
      .withTool(report)
      .unlockedByAll(search, fetch);
    const model = await run(playbook, [
      ScriptedModel.toolCall("report", {}),
      ScriptedModel.toolCall("search", {}),
      ScriptedModel.toolCall("report", {}),
      ScriptedModel.toolCall("fetch", {}),
      ScriptedModel.toolCall("report", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toBe("This tool is not yet available. You must first use: search, fetch");
    expect(resultText(model, 4)).toBe("This tool is not yet available. You must first use: fetch");
    expect(resultText(model, 6)).toBe("report done");
  });

  it("unlocks after any one prerequisite (OR)", async () => {
    const [search, fetch, process] = [tool("search"), tool("fetch"), tool("process")];
    const playbook = PlaybookTool.create("p", "P")
      .withTools(search, fetch)
      .withTool(process)
      .unlockedByAny(search, fetch);
    const model = await run(playbook, [
      ScriptedModel.toolCall("process", {}),
      ScriptedModel.toolCall("fetch", {}),
      ScriptedModel.toolCall("process", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toBe(
      "This tool is not yet available. At least one prerequisite condition must be met.",
    );
    expect(resultText(model, 4)).toBe("process done");
  });

  it("unlocks on an artifact of a type, or one matching a predicate", async () => {
    const write = tool("write", ToolResult.withArtifact("written", { body: "text" }));
    const [format, publish] = [tool("format"), tool("publish")];
    const playbook = PlaybookTool.create("p", "P")
      .withTools(write)
      .withTool(format)
      .unlockedByArtifact(Document)
      .withTool(publish)
      .unlockedByArtifactMatching((artifact) => (artifact as { body?: string }).body === "text");
    const model = await run(playbook, [
      ScriptedModel.toolCall("format", {}),
      ScriptedModel.toolCall("publish", {}),
      ScriptedModel.toolCall("write", {}),
      ScriptedModel.toolCalls([
        { name: "format", args: {} },
        { name: "publish", args: {} },
      ]),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 2)).toBe(
      "This tool is not yet available. You must first produce an artifact of type: Document",
    );
    expect(resultText(model, 3)).toBe("This tool is not yet available. Prerequisites have not been met yet.");
    expect(model.requests[5]?.toolResults.map((part) => part.output)).toEqual([
      { type: "text", value: "format done" },
      { type: "text", value: "publish done" },
    ]);
  });

  it("unlocks on the process's blackboard", async () => {
    const act = tool("act");
    const playbook = PlaybookTool.create("p", "P")
      .withTools(tool("look"))
      .withTool(act)
      .unlockedByBlackboard(UserProfile)
      .withTool(tool("audit"))
      .unlockedByBlackboardMatching((blackboard) => blackboard.objects.length > 5);
    const model = await run(
      playbook,
      [
        ScriptedModel.toolCall("act", {}),
        ScriptedModel.toolCall("audit", {}),
        ScriptedModel.text("inner done"),
      ],
      (context) => context.blackboard.add(UserProfile.create({ user: "ada" })),
    );
    expect(resultText(model, 2)).toBe("act done");
    expect(resultText(model, 3)).toBe("This tool is not yet available. Prerequisites have not been met yet.");
  });

  it("unlocks on a custom predicate over the iteration count", async () => {
    const step = tool("step");
    const playbook = PlaybookTool.create("p", "P")
      .withTools(step)
      .withTool(tool("finalize"))
      .unlockedWhen((context) => context.iterationCount >= 2);
    const model = await run(playbook, [
      ScriptedModel.toolCall("step", {}),
      ScriptedModel.toolCall("finalize", {}),
      ScriptedModel.toolCall("step", {}),
      ScriptedModel.toolCall("finalize", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 3)).toContain("not yet available");
    expect(resultText(model, 5)).toBe("finalize done");
  });

  it("names prerequisites given by name too", async () => {
    const a = tool("a");
    const playbook = PlaybookTool.create("p", "P").withTools(a).withTool(tool("b")).unlockedByAll(a, "c");
    const model = await run(playbook, [ScriptedModel.toolCall("b", {}), ScriptedModel.text("inner done")]);
    expect(resultText(model, 2)).toBe("This tool is not yet available. You must first use: a, c");
  });

  it("needs every condition of a tool registered twice", async () => {
    const [search, publish] = [tool("search"), tool("publish")];
    const playbook = PlaybookTool.create("p", "P")
      .withTools(search)
      .withTool(publish)
      .unlockedBy(search)
      .withTool(publish)
      .unlockedByArtifact(Document);
    expect(playbook.lockedToolCount).toBe(1);
    const model = await run(playbook, [
      ScriptedModel.toolCall("search", {}),
      ScriptedModel.toolCall("publish", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 3)).toBe(
      "This tool is not yet available. Multiple conditions must be met before this tool is available.",
    );
    expect(publish.calls).toBe(0);
  });

  it("passes the call's context through its recording and locked wrappers", async () => {
    const tenants: unknown[] = [];
    const reading = (name: string) =>
      Tool.create(name, name, (_input, context) => {
        tenants.push(context.get("tenant"));
        return ToolResult.text("ok");
      });
    const first = reading("first");
    const playbook = PlaybookTool.create("p", "P")
      .withTools(first)
      .withTool(reading("second"))
      .unlockedBy(first);
    const model = new ScriptedModel([
      ScriptedModel.toolCall("p", {}),
      ScriptedModel.toolCall("first", {}),
      ScriptedModel.toolCall("second", {}),
      ScriptedModel.text("inner"),
      ScriptedModel.text("outer"),
    ]);
    const platform = AgentPlatform.create({ models: { main: model } });
    await platform.runInProcess(
      async (context) => {
        await context.ai().withTool(playbook).generateText("go");
      },
      { processOptions: ProcessOptions.DEFAULT.withToolCallContext({ tenant: "acme" }) },
    );
    expect(tenants).toEqual(["acme", "acme"]);
  });

  it("adds the prerequisites note to the default system prompt", async () => {
    const playbook = PlaybookTool.create("researcher", "Research topics").withTools(tool("search"));
    const model = await run(playbook, [ScriptedModel.text("inner done")]);
    expect(model.requests[1]?.prompt[0]).toEqual({
      role: "system",
      content:
        "You are an intelligent agent that can use tools to help you complete tasks.\nUse the provided tools to perform the following task:\nResearch topics\n\nNote: Some tools may require certain prerequisites before they become available.\nIf a tool indicates it is not yet available, use the required prerequisite tools first.",
    });
  });

  it("fails fast on a tool both available from the start and locked, or two tools with one name", () => {
    const search = tool("search");
    expect(() =>
      PlaybookTool.create("p", "P")
        .withTools(search)
        .withTool(search)
        .unlockedWhen(() => true),
    ).toThrow(/tool 'search' is both available from the start \(withTools\) and locked/);
    expect(() =>
      PlaybookTool.create("p", "P")
        .withTool(search)
        .unlockedWhen(() => true)
        .withTools(search),
    ).toThrow(ConfigurationError);
    expect(() => PlaybookTool.create("p", "P").withTools(search, tool("search"))).toThrow(
      "p: two different sub-tools are named 'search'",
    );
  });

  it("counts its tools and lists them as inner tools", () => {
    const [search, analyze] = [tool("search"), tool("analyze")];
    const playbook = PlaybookTool.create("p", "P").withTools(search).withTool(analyze).unlockedBy(search);
    expect(playbook.unlockedToolCount).toBe(1);
    expect(playbook.lockedToolCount).toBe(1);
    expect(playbook.innerTools).toEqual([search, analyze]);
    expect(Tool.formatToolTree("root", [playbook])).toBe(
      "root\n└── p (2 inner tools)\n    ├── search\n    └── analyze",
    );
  });

  it("answers 'No tools available for PlaybookTool' without tools; chaining alone gets past it", async () => {
    class User {
      @llmTool({ description: "Profile" })
      profile(): string {
        return "p";
      }
    }
    const empty = PlaybookTool.create("p", "P");
    expect(await empty.call("{}")).toMatchObject({
      kind: "error",
      content: "No tools available for PlaybookTool",
    });
    expect(await empty.withToolChainingFrom(User).call("{}")).toMatchObject({
      kind: "error",
      content: "No AgentProcess context available",
    });
  });

  it("offers chained tools ungated", async () => {
    class User {
      constructor(readonly name: string) {}
      @llmTool({ description: "Get user's profile information" })
      getProfile(): string {
        return `Profile for ${this.name}`;
      }
    }
    const getUser = tool("getUser", ToolResult.withArtifact("found", new User("Ada")));
    const playbook = PlaybookTool.create("userManager", "Manage users")
      .withTool(getUser)
      .unlockedWhen(() => true)
      .withToolChainingFrom(User);
    const model = await run(playbook, [
      ScriptedModel.toolCall("getUser", {}),
      ScriptedModel.toolCall("getProfile", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(model.requests[1]?.toolNames).toEqual(["getUser", "getProfile"]);
    expect(resultText(model, 3)).toBe("Profile for Ada");
  });

  it("records a list or Set artifact element by element, skipping null", async () => {
    const seen: unknown[][] = [];
    const gather = tool(
      "gather",
      ToolResult.withArtifact("gathered", new Set([{ body: "a" }, null, { body: "b" }])),
    );
    const pair = tool("pair", ToolResult.withArtifact("paired", [undefined, { body: "c" }]));
    const count = tool("count");
    const playbook = PlaybookTool.create("p", "P")
      .withTools(gather, pair)
      .withTool(count)
      .unlockedWhen((context) => {
        seen.push([...context.artifacts]);
        return context.artifacts.length === 3;
      });
    const model = await run(playbook, [
      ScriptedModel.toolCall("gather", {}),
      ScriptedModel.toolCall("pair", {}),
      ScriptedModel.toolCall("count", {}),
      ScriptedModel.text("inner done"),
    ]);
    expect(resultText(model, 4)).toBe("count done");
    expect(seen.at(-1)).toEqual([{ body: "a" }, { body: "b" }, { body: "c" }]);
  });

  describe("sees calls of tools it reaches through a facade or chaining (D1)", () => {
    const withDoc = () => tool("search_inner", ToolResult.withArtifact("found", { body: "tides" }));

    it("unlockedBy and unlockedByArtifact unlock after a tool an unfolded facade offered ran", async () => {
      const inner = withDoc();
      const facade = UnfoldingTool.of("research_tools", "Research tools", [inner]);
      const [analyze, format] = [tool("analyze"), tool("format")];
      const playbook = PlaybookTool.create("pb", "PB")
        .withTools(facade)
        .withTool(analyze)
        .unlockedBy("search_inner")
        .withTool(format)
        .unlockedByArtifact(Document);
      const model = await run(playbook, [
        ScriptedModel.toolCall("research_tools", {}),
        ScriptedModel.toolCall("search_inner", {}),
        ScriptedModel.toolCall("analyze", {}),
        ScriptedModel.toolCall("format", {}),
        ScriptedModel.text("inner done"),
      ]);
      expect(resultText(model, 3)).toBe("found");
      expect(resultText(model, 4)).toBe("analyze done");
      expect(resultText(model, 5)).toBe("format done");
      expect([inner.calls, analyze.calls, format.calls]).toEqual([1, 1, 1]);
    });

    it("counts a tool the facade ran by shortcut dispatch", async () => {
      const inner = withDoc();
      const facade = UnfoldingTool.of("research_tools", "Research tools", [inner]);
      const analyze = tool("analyze");
      const playbook = PlaybookTool.create("pb", "PB").withTools(facade).withTool(analyze).unlockedBy(inner);
      const model = await run(playbook, [
        ScriptedModel.toolCall("research_tools", { search_inner: {} }),
        ScriptedModel.toolCall("analyze", {}),
        ScriptedModel.text("inner done"),
      ]);
      expect(inner.calls).toBe(1);
      expect(resultText(model, 3)).toBe("analyze done");
    });

    it("still refuses before the facade's tool ran", async () => {
      const facade = UnfoldingTool.of("research_tools", "Research tools", [withDoc()]);
      const analyze = tool("analyze");
      const playbook = PlaybookTool.create("pb", "PB")
        .withTools(facade)
        .withTool(analyze)
        .unlockedBy("search_inner");
      const model = await run(playbook, [
        ScriptedModel.toolCall("research_tools", {}),
        ScriptedModel.toolCall("analyze", {}),
        ScriptedModel.text("inner done"),
      ]);
      expect(resultText(model, 3)).toBe("This tool is not yet available. You must first use: search_inner");
      expect(analyze.calls).toBe(0);
    });

    it("unlocks after a chained tool ran or produced the artifact", async () => {
      const Report = domainType("Report", z.object({ r: z.number() }));
      class User {
        constructor(readonly name: string) {}
        @llmTool({ description: "Make the user's report" })
        makeReport(): ToolResult {
          return ToolResult.withArtifact('{"r":1}', Report.parse({ r: 1 }));
        }
      }
      const getUser = tool("getUser", ToolResult.withArtifact("found", new User("Ada")));
      const [publish, archive] = [tool("publish"), tool("archive")];
      const playbook = PlaybookTool.create("reports", "Reports")
        .withTools(getUser)
        .withTool(publish)
        .unlockedBy("makeReport")
        .withTool(archive)
        .unlockedByArtifact(Report)
        .withToolChainingFrom(User);
      const model = await run(playbook, [
        ScriptedModel.toolCall("getUser", {}),
        ScriptedModel.toolCall("makeReport", {}),
        ScriptedModel.toolCall("publish", {}),
        ScriptedModel.toolCall("archive", {}),
        ScriptedModel.text("inner done"),
      ]);
      expect(resultText(model, 3)).toBe('{"r":1}');
      expect(resultText(model, 4)).toBe("publish done");
      expect(resultText(model, 5)).toBe("archive done");
    });
  });
});
