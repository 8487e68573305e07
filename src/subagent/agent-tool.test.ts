import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { defineAgent } from "../platform/define-agent.js";
import type { OperationContext } from "../platform/operation-context.js";
import { ProcessOptions } from "../platform/process-options.js";
import { Verbosity } from "../platform/verbosity.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { AgentTool, ENTRY_POINT_OPTIONS } from "./agent-tool.js";

const Question = domainType("Question", z.object({ text: z.string().min(1) }));
const Reply = domainType("Reply", z.object({ text: z.string() }));

function setUp() {
  const seen: { process?: AgentProcess } = {};
  const answerer = defineAgent({
    name: "Answerer",
    description: "Answers questions",
    actions: [
      {
        name: "answer",
        input: Question,
        output: Reply,
        achievesGoal: { description: "Answered" },
        run: (question: { text: string }, context: OperationContext) => {
          seen.process = context.process;
          if (question.text === "fail") throw new Error("cannot answer");
          return { text: `You asked: ${question.text}` };
        },
      },
    ],
  });
  const platform = AgentPlatform.create({ name: "test", models: { main: new ScriptedModel() } });
  platform.deploy(answerer);
  return { platform, seen };
}

describe("AgentTool", () => {
  it("is named and described after the agent, with the input type's schema", () => {
    const { platform } = setUp();
    const tool = AgentTool.of(platform, "Answerer", Question);
    expect(tool.definition.name).toBe("Answerer");
    expect(tool.definition.description).toBe("Answers questions");
    expect(tool.definition.inputSchema.jsonSchema).toEqual(Question.jsonSchema);
    expect(String(tool)).toBe("AgentTool(Answerer)");
  });

  it("runs the agent as a new process and returns its result as text", async () => {
    const { platform, seen } = setUp();
    const result = await AgentTool.of(platform, "Answerer", Question).call('{"text":"why?"}');
    expect(result).toEqual(ToolResult.text('{"text":"You asked: why?"}'));
    expect(seen.process?.parentId).toBeUndefined();
  });

  it("shows prompts by default and inherits nothing from a calling process", async () => {
    const { platform, seen } = setUp();
    const tool = AgentTool.of(platform, "Answerer", Question);
    const quiet = ProcessOptions.DEFAULT.withContextId("outer");
    await platform.runInProcess(() => tool.call('{"text":"hi"}'), { processOptions: quiet });
    expect(seen.process?.processOptions).toBe(ENTRY_POINT_OPTIONS);
    expect(seen.process?.processOptions.verbosity.showPrompts).toBe(true);
    expect(seen.process?.processOptions.contextId).toBeUndefined();
  });

  it("takes its options from the processOptionsCreator, given the calling process", async () => {
    const { platform, seen } = setUp();
    const callers: (AgentProcess | undefined)[] = [];
    const tool = AgentTool.of(platform, "Answerer", Question, {
      processOptionsCreator: (parent) => {
        callers.push(parent);
        return ProcessOptions.DEFAULT.withVerbosity(new Verbosity()).withContextId(parent?.id ?? "none");
      },
    });
    const outer = await platform.runInProcess(() => tool.call('{"text":"hi"}'));
    expect(callers).toEqual([outer]);
    expect(seen.process?.processOptions.contextId).toBe(outer.id);
    expect(seen.process?.processOptions.verbosity.showPrompts).toBe(false);
  });

  it("gives the run the call's ToolCallContext, without the calling loop's id", async () => {
    const { platform, seen } = setUp();
    const context = ToolCallContext.of({ tenant: "acme", [ToolCallContext.LOOP_ID_KEY]: "outer-loop" });
    await AgentTool.of(platform, "Answerer", Question).call('{"text":"hi"}', context);
    expect(seen.process?.processOptions.toolCallContext.toRecord()).toEqual({ tenant: "acme" });
    expect(seen.process?.processOptions.verbosity.showPrompts).toBe(true);
  });

  it("kills its run when the call's signal aborts, and rejects", async () => {
    const { platform } = setUp();
    const controller = new AbortController();
    controller.abort(new Error("caller went away"));
    const finished: string[] = [];
    const tool = AgentTool.of(platform, "Answerer", Question, {
      processOptionsCreator: () =>
        ProcessOptions.DEFAULT.withListener((event) => {
          if (event.type === "process-finished") finished.push(event.status);
        }),
    });
    await expect(
      tool.call('{"text":"hi"}', ToolCallContext.EMPTY, { signal: controller.signal }),
    ).rejects.toThrow("caller went away");
    expect(finished).toEqual(["killed"]);
  });

  it("answers bad JSON with the BAD INPUT message", async () => {
    const { platform } = setUp();
    const result = await AgentTool.of(platform, "Answerer", Question).call("{nope");
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(
      /^BAD INPUT ERROR parsing tool input: invalid JSON \(.*\): Try again and see if you can get the format right$/,
    );
  });

  it("answers a schema violation with the BAD INPUT message naming the field", async () => {
    const { platform } = setUp();
    const result = await AgentTool.of(platform, "Answerer", Question).call('{"text":""}');
    expect(result.content).toMatch(
      /^BAD INPUT ERROR parsing tool input: Invalid Question: text: .*: Try again and see if you can get the format right$/,
    );
  });

  it("reports a failed run as an error result", async () => {
    const { platform } = setUp();
    const result = await AgentTool.of(platform, "Answerer", Question).call('{"text":"fail"}');
    expect(result).toMatchObject({ kind: "error", content: "Agent 'Answerer' failed: cannot answer" });
  });

  it("rejects an agent name that is not deployed", () => {
    const { platform } = setUp();
    const error = (() => {
      try {
        AgentTool.of(platform, "Ghost", Question);
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      "No agent named 'Ghost' is deployed on platform 'test'. Deployed agents: [Answerer]",
    );
  });
});
