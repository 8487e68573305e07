import { emit, listenerFor } from "../loop/loop-telemetry.js";
import type { AgentProcess } from "../platform/agent-process.js";
import type { ToolResult } from "../tool/tool-result.js";

/** Reports a program's inner calls as `tool-call-start` / `tool-call-end` events of the process. */
export interface InnerCallEvents {
  start(toolCallId: string, toolName: string, input: string): void;
  end(toolCallId: string, toolName: string, input: string, result: ToolResult, durationMs: number): void;
}

/**
 * The events of a program's inner calls, sent to `process` as tool-call events
 * of their own loop (`loopId`, the code call's key) linked to the code call
 * (`parentToolCallId`), so the CLI tree and the studio nest them under it;
 * `undefined` outside a process or when nobody wants the events.
 */
export function innerCallEvents(
  process: AgentProcess | undefined,
  parentToolCallId: string | undefined,
  loopId: string,
): InnerCallEvents | undefined {
  if (process === undefined) return undefined;
  const onEvent = process.onLoopEvent.bind(process);
  const onStart = listenerFor(onEvent, process.loopEventTypes, "tool-call-start");
  const onEnd = listenerFor(onEvent, process.loopEventTypes, "tool-call-end");
  if (onStart === undefined && onEnd === undefined) return undefined;
  return {
    start(toolCallId, toolName, input) {
      if (onStart === undefined) return;
      emit(onStart, {
        type: "tool-call-start",
        loopId,
        toolCallId,
        toolName,
        input,
        ...(parentToolCallId !== undefined ? { parentToolCallId } : {}),
      });
    },
    end(toolCallId, toolName, input, result, durationMs) {
      if (onEnd !== undefined)
        emit(onEnd, { type: "tool-call-end", loopId, toolCallId, toolName, input, result, durationMs });
    },
  };
}
