import { describe, expect, it } from "vitest";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ToolResult } from "../tool/tool-result.js";
import { TraceRecorder } from "./trace-recorder.js";
import { TraceSink } from "./trace-sink.js";

function toolCallEnd(content: string): AgentProcessEvent {
  return {
    type: "tool-call-end",
    processId: "p",
    timestamp: 1,
    loopId: "l",
    toolCallId: "c",
    toolName: "dump",
    input: "{}",
    result: ToolResult.text(content),
    durationMs: 1,
  };
}

describe("TraceRecorder", () => {
  it("keeps at most maxResultChars of a tool result, saying how much it left out", () => {
    const lines: string[] = [];
    const recorder = new TraceRecorder(
      TraceSink.lines((line) => lines.push(line)),
      { maxResultChars: 5 },
    );
    recorder.listener(toolCallEnd("0123456789"));
    recorder.listener(toolCallEnd("01234"));
    const [cut, whole] = lines.slice(1).map((line) => JSON.parse(line).result.content);
    expect(cut).toBe("01234… [5 of 10 characters not kept in the trace]");
    expect(whole).toBe("01234");
  });
});
