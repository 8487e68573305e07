import { describe, expect, it } from "vitest";
import { captureLogs } from "../../test/support/captured-logs.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { ListOutputChannel } from "../platform/output-channel.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedRequest } from "../testing/scripted-step.js";
import { Tool } from "../tool/tool.js";
import { AgentProcessTools, NO_AGENT_PROCESS } from "./agent-process-tools.js";
import { BlackboardTools, NO_BLACKBOARD } from "./blackboard-tools.js";
import { CommunicateTool } from "./communicate-tool.js";
import { ProgressTool } from "./progress-tool.js";

// The four built-ins as an LLM meets them: through the tool loop of a prompt
// runner, the two facades unfolding on first call.

const builtins = () => [
  AgentProcessTools.create(),
  BlackboardTools.create(),
  ProgressTool.create(),
  CommunicateTool.create(),
];

/** What the model was told for each tool result of this request, as `name → text`. */
function told(request: ScriptedRequest | undefined): string[] {
  return (request?.toolResults ?? []).map((part) => {
    const output = part.output;
    const text =
      output.type === "text" || output.type === "error-text" ? output.value : JSON.stringify(output);
    return `${part.toolName} → ${text}`;
  });
}

const processChildren = [
  "process_status",
  "process_budget",
  "process_cost",
  "process_history",
  "process_tools_stats",
  "process_models",
];
const blackboardChildren = [
  "blackboard_list",
  "blackboard_get",
  "blackboard_last",
  "blackboard_describe",
  "blackboard_count",
];

describe("the built-in tools in a tool loop", () => {
  it("unfold, read the process and its blackboard, report progress and message the user", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("agent_process", {}, { usage: { inputTokens: 100, outputTokens: 10 } }),
      ScriptedModel.toolCall("process_budget", {}),
      ScriptedModel.toolCall("progress", { status: "Looking at what I have" }),
      ScriptedModel.toolCall("blackboard", {}),
      ScriptedModel.toolCalls([
        { name: "blackboard_list", args: {} },
        { name: "blackboard_get", args: { name: "question" } },
      ]),
      ScriptedModel.toolCall("blackboard_list", {}),
      ScriptedModel.toolCall("process_tools_stats", {}),
      ScriptedModel.toolCall("communicate", { message: "All done: 1 question answered." }),
      ScriptedModel.text("Finished."),
    ]);
    const platform = AgentPlatform.create({ models: { default: model } });
    const channel = new ListOutputChannel();
    const process = await platform.runInProcess(
      async (context) => {
        context.blackboard.bind("question", { _typeName: "Question", text: "Why is the sky blue?" });
        return context.ai().withTools(builtins()).generateText("Answer and report.");
      },
      { processOptions: ProcessOptions.DEFAULT.withOutputChannel(channel).withBudget({ tokens: 10_000 }) },
    );
    expect(process.status).toBe("completed");
    expect(process.result).toBe("Finished.");
    expect(model.remaining).toBe(0);

    const top = ["agent_process", "blackboard", "progress", "communicate"];
    const afterProcess = [...top, ...processChildren, "agent_process_context"];
    const afterBoth = [...afterProcess, ...blackboardChildren, "blackboard_context"];
    expect(model.toolNamesPerRequest).toEqual([
      top,
      afterProcess,
      afterProcess,
      afterProcess,
      afterBoth,
      afterBoth,
      afterBoth,
      afterBoth,
      afterBoth,
    ]);

    expect(told(model.requests[1])[0]).toMatch(/^agent_process → .*process_budget/s);
    expect(told(model.requests[2])).toEqual([
      [
        "process_budget → Budget Status:",
        "",
        "Cost limit: $2.0000",
        "  Used: $0.0000",
        "  Remaining: $2.0000",
        "",
        "Token limit: 10,000",
        "  Used: 110",
        "  Remaining: 9,890",
        "",
        "Action limit: 50",
        "  Used: 0",
        "  Remaining: 50",
      ].join("\n"),
    ]);
    expect(told(model.requests[3])).toEqual(["progress → Progress reported: Looking at what I have"]);
    expect(told(model.requests[5])).toEqual([
      "blackboard_list → Blackboard contains 1 object(s):\n[0] Question",
      'blackboard_get → Question bound to \'question\':\n{\n  "_typeName": "Question",\n  "text": "Why is the sky blue?"\n}',
    ]);
    expect(told(model.requests[7])).toEqual([
      [
        "process_tools_stats → Tool Usage Statistics:",
        "",
        "Total tool calls: 7",
        "Unique tools used: 6",
        "",
        "Calls by tool:",
        "  blackboard_list: 2 calls",
        "  agent_process: 1 calls",
        "  process_budget: 1 calls",
        "  progress: 1 calls",
        "  blackboard: 1 calls",
        "  blackboard_get: 1 calls",
      ].join("\n"),
    ]);
    expect(told(model.requests[8])).toEqual(["communicate → Message sent to user."]);
    expect(channel.events).toEqual([
      { type: "progress", processId: process.id, message: "Looking at what I have" },
      {
        type: "message",
        processId: process.id,
        message: { role: "assistant", content: "All done: 1 question answered." },
      },
    ]);
  });

  it("answers without a process, and the loop goes on", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("agent_process", {}),
      ScriptedModel.toolCalls([
        { name: "process_status", args: {} },
        { name: "blackboard", args: {} },
      ]),
      ScriptedModel.toolCalls([
        { name: "blackboard_list", args: {} },
        { name: "progress", args: { status: "still here" } },
        { name: "communicate", args: { message: "hello" } },
        { name: "communicate", args: {} },
      ]),
      ScriptedModel.text("ok"),
    ]);
    const platform = AgentPlatform.create({ models: { default: model } });
    const logs = captureLogs();
    const text = await platform
      .ai()
      .withTools(builtins())
      .generateText("Check yourself.")
      .finally(() => logs.restore());
    expect(text).toBe("ok");
    // Outside a process there is nobody to show them to: the library logger says so.
    expect(logs.lines).toEqual([
      "warn: progress tool called outside of an agent process — ignoring: still here",
      "warn: communicate tool called outside of an agent process — ignoring: hello",
    ]);
    expect(told(model.requests[2])[0]).toBe(`process_status → ${NO_AGENT_PROCESS}`);
    const last = told(model.requests[3]);
    expect(last[0]).toBe(`blackboard_list → ${NO_BLACKBOARD}`);
    expect(last[1]).toBe("progress → Progress noted (no active process to display it).");
    expect(last[2]).toBe("communicate → Message noted (no active process to deliver it).");
    expect(last[3]).toBe("communicate → Error: Missing 'message' parameter");
    expect(model.requests[3]?.toolResults[3]?.output.type).toBe("error-text");
  });

  it("answers bad arguments in the chapter's own words, not the gate's", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("blackboard", {}),
      ScriptedModel.toolCalls([
        { name: "communicate", args: {} },
        { name: "progress", args: { other: "x" } },
        { name: "blackboard_get", args: {} },
        { name: "blackboard_describe", args: { name: 7 } },
        { name: "blackboard_last", args: "not json" },
        { name: "blackboard_count", args: "" },
        { name: "blackboard_list", args: "[1, 2" },
      ]),
      ScriptedModel.text("ok"),
    ]);
    const platform = AgentPlatform.create({ models: { default: model } });
    const process = await platform.runInProcess(async (context) => {
      context.blackboard.bind("question", { _typeName: "Question", text: "Why?" });
      return context.ai().withTools(builtins()).generateText("Try the tools.");
    });
    expect(process.status).toBe("completed");
    expect(told(model.requests[2])).toEqual([
      "communicate → Error: Missing 'message' parameter",
      "progress → Error: Missing 'status' parameter",
      "blackboard_get → Missing required parameter: name",
      "blackboard_describe → Missing required parameter: name",
      "blackboard_last → Missing required parameter: typeName",
      "blackboard_count → Missing required parameter: typeName",
      // Invalid JSON is treated as no parameters.
      "blackboard_list → Blackboard contains 1 object(s):\n[0] Question",
    ]);
    // The transcript shows what the tools read: no parameters.
    const calls = model.requests[2]?.prompt.at(-2)?.content as { input?: unknown }[];
    expect(calls.map((part) => part.input).slice(4)).toEqual([{}, {}, {}]);
  });

  it("still validates the arguments of a built-in that needs approval", async () => {
    const gated = Tool.requireApproval(CommunicateTool.create(), { when: () => false });
    const model = new ScriptedModel([
      ScriptedModel.toolCall("communicate", {}),
      ScriptedModel.toolCall("communicate", "not json"),
      ScriptedModel.text("ok"),
    ]);
    const platform = AgentPlatform.create({ models: { default: model } });
    await platform.runInProcess(async (context) => context.ai().withTools([gated]).generateText("Go."));
    expect(told(model.requests[1])).toEqual([
      "communicate → Invalid arguments for tool 'communicate': missing required field 'message'. Call the tool again with arguments that match its input schema.",
    ]);
    expect(told(model.requests[2])[0]).toMatch(
      /^communicate → Invalid arguments for tool 'communicate': the arguments are not valid JSON/,
    );
  });
});
