import { AwaitingResponse } from "../errors/awaiting-response.js";
import { gateToolCall } from "../loop/tool-gate.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";

/** An inner tool named by the facade's input, and the input to pass it. */
export interface Shortcut {
  readonly tool: Tool;
  /** The named property's value as JSON text (scalars stay JSON scalars: `"ecstasy"` keeps its quotes). */
  readonly input: string;
}

/**
 * Shortcut dispatch: when `input` is a JSON object one of whose top-level
 * property names is an inner tool's name (first in property order wins), that
 * tool with the property's value as its input. Blank input, invalid JSON,
 * arrays, scalars and unmatched names give `undefined`.
 */
export function findShortcut(input: string, tools: readonly Tool[]): Shortcut | undefined {
  const trimmed = input.trim();
  if (trimmed === "" || tools.length === 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  for (const [key, value] of Object.entries(parsed)) {
    const tool = byName.get(key);
    if (tool) return { tool, input: JSON.stringify(value) };
  }
  return undefined;
}

/** What a shortcut call came to: the inner tool's result, and the arguments it ran with (validated). */
export interface ShortcutRun {
  readonly result: ToolResult;
  readonly input: string;
}

/**
 * Runs `shortcut` through the approval gate, as if the model had called the
 * inner tool by name: its arguments are validated (refused in-band when they
 * don't fit), a call needing approval asks whoever answers approvals (inside
 * an agent process the call waits: an {@link AwaitingResponse} is thrown, and
 * the same call finds the answer when the loop runs again), then the tool runs
 * with exactly the approved input. The call's key is the outer call's key
 * plus the inner tool's name. A scalar value (not an object) goes through the
 * same check: a tool whose metadata sets `lenientArguments` (and needs no
 * approval) receives it as the reference passes it (`"ecstasy"` with its
 * quotes); any other tool answers in-band that its arguments must be a JSON object.
 */
export async function runShortcut(
  shortcut: Shortcut,
  context: ToolCallContext,
  options: ToolCallOptions,
): Promise<ShortcutRun> {
  const tool = shortcut.tool;
  const toolName = tool.definition.name;
  const outcome = await gateToolCall(
    { tool, toolName, input: shortcut.input, callKey: `${options.callKey ?? "direct"}/${toolName}` },
    { context, callOptions: options },
  );
  switch (outcome.kind) {
    case "ran":
      return { result: outcome.result, input: outcome.input };
    case "refused":
      return { result: ToolResult.error(outcome.message), input: shortcut.input };
    case "pending":
      throw new AwaitingResponse([outcome.request]);
  }
}
