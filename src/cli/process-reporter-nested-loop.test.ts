import { describe, expect, it } from "vitest";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ToolResult } from "../tool/tool-result.js";
import { ProcessReporter } from "./process-reporter.js";
import { memoryTerminal } from "./terminal.js";

const at = { timestamp: 0, processId: "p" };

function start(loopId: string, toolName: string): AgentProcessEvent {
  return { ...at, type: "tool-call-start", loopId, toolCallId: toolName, toolName, input: "{}" };
}

function end(loopId: string, toolName: string, result: string): AgentProcessEvent {
  return {
    ...at,
    type: "tool-call-end",
    loopId,
    toolCallId: toolName,
    toolName,
    input: "{}",
    result: ToolResult.text(result),
    durationMs: 1,
  };
}

describe("ProcessReporter with nested tool loops (agentic tools)", () => {
  it("indents a loop started inside a tool call of the same process under that call", () => {
    const terminal = memoryTerminal();
    const reporter = new ProcessReporter(terminal);
    for (const event of [
      { ...at, type: "action-start", action: "resolve" },
      start("outer", "diagnose"),
      start("inner", "lookup"),
      end("inner", "lookup", "found"),
      { ...at, type: "tools-changed", loopId: "inner", added: ["profile"], removed: [] },
      start("inner", "profile"),
      end("inner", "profile", "gold"),
      end("outer", "diagnose", "refund due"),
      start("outer", "refund"),
      end("outer", "refund", "refunded"),
    ] as AgentProcessEvent[]) {
      reporter.listener(event);
    }
    expect(terminal.stdout).toEqual([
      "▶ resolve",
      "  ⚙ diagnose {}",
      "      ⚙ lookup {}",
      "        ↳ found (1ms)",
      "        + tools: profile",
      "      ⚙ profile {}",
      "        ↳ gold (1ms)",
      "    ↳ refund due (1ms)",
      "  ⚙ refund {}",
      "    ↳ refunded (1ms)",
    ]);
    expect(reporter.totals.toolCalls).toBe(4);
  });

  it("indents a nested loop's prompt log under the tool call that runs it", () => {
    const terminal = memoryTerminal();
    const reporter = new ProcessReporter(terminal);
    reporter.outputChannel.send({ type: "logging", processId: "p", level: "debug", message: "outer prompt" });
    reporter.listener(start("outer", "diagnose"));
    reporter.outputChannel.send({ type: "logging", processId: "p", level: "debug", message: "inner prompt" });
    reporter.listener(end("outer", "diagnose", "done"));
    expect(terminal.stdout).toEqual([
      "  │ outer prompt",
      "  ⚙ diagnose {}",
      "      │ inner prompt",
      "    ↳ done (1ms)",
    ]);
  });
});
