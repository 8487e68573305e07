import type { Tool as McpToolInfo } from "@modelcontextprotocol/client";
import { Logger } from "../tool/logger.js";
import { mcpClientSdk } from "./load-mcp-sdk.js";

/**
 * How deeply a listed tool's input or output schema may nest (objects and
 * arrays, counted as JSON). Schemas are compiled and checked recursively, and
 * a provider serialises them with `JSON.stringify`: a few thousand levels
 * overflow the stack. Real schemas stay far below this.
 */
export const MAX_SCHEMA_DEPTH = 256;

/** The longest tool name the MCP specification allows. */
const MAX_NAME_LENGTH = 128;

/** Whether `value` nests objects and arrays more than `max` levels deep (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== "object" || current === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(current)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Why `raw` can't be used as a tool, or `undefined` with the parsed tool. */
function check(raw: unknown): { tool: McpToolInfo } | { shown: string; problem: string } {
  const name = (raw as { name?: unknown } | null)?.name;
  const shown = typeof name === "string" ? `tool '${name.slice(0, 80)}'` : "a tool without a name";
  if (typeof name !== "string" || name.trim() === "" || name.length > MAX_NAME_LENGTH) {
    return { shown, problem: `a name must be a string of 1 to ${MAX_NAME_LENGTH} characters` };
  }
  const schemas = raw as { inputSchema?: unknown; outputSchema?: unknown };
  if (
    nestsDeeperThan(schemas.inputSchema, MAX_SCHEMA_DEPTH) ||
    nestsDeeperThan(schemas.outputSchema, MAX_SCHEMA_DEPTH)
  ) {
    return { shown, problem: `its schema nests more than ${MAX_SCHEMA_DEPTH} levels deep` };
  }
  const parsed = mcpClientSdk().specTypeSchemas.Tool["~standard"].validate(raw);
  if (parsed.issues !== undefined) {
    const issue = parsed.issues[0];
    const path = (issue?.path ?? []).map((key) => (typeof key === "object" ? key.key : key));
    const where = path.length > 0 ? `${path.join(".")}: ` : "";
    return { shown, problem: `${where}${issue?.message ?? "not a valid tool description"}` };
  }
  return { tool: parsed.value as McpToolInfo };
}

/**
 * The tools of a `tools/list` page that can be used: each is checked on its
 * own (against the MCP schema of a tool, a name of 1 to 128 characters, and
 * schemas at most {@link MAX_SCHEMA_DEPTH} deep), and one that fails is left
 * out with a warning naming the server, the tool and why, so one bad tool
 * never makes the server's other tools unusable.
 */
export function usableMcpTools(server: string, listed: readonly unknown[]): McpToolInfo[] {
  const tools: McpToolInfo[] = [];
  for (const raw of listed) {
    const checked = check(raw);
    if ("tool" in checked) tools.push(checked.tool);
    else skippedTool(server, checked.shown, checked.problem);
  }
  return tools;
}

/** Warns that `server`'s tool (`tool 'x'`) was left out, and why. */
export function skippedTool(server: string, tool: string, problem: string): void {
  Logger.current().warn(`MCP server '${server}' lists ${tool}, which is skipped: ${problem}.`, { server });
}
