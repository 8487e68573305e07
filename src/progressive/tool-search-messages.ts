import type { Tool } from "../tool/tool.js";

/** A search the model asked for: the query and how many tools to return. */
export interface SearchInput {
  readonly query: string;
  readonly limit: number;
}

/** The longest description shown in search results; the tool's full definition is offered anyway. */
const MAX_DESCRIPTION = 200;

function shortened(description: string): string {
  const line = description.replace(/\s+/g, " ").trim();
  return line.length <= MAX_DESCRIPTION ? line : `${line.slice(0, MAX_DESCRIPTION - 1)}…`;
}

/** The query and limit of a search call, or the in-band message saying what was wrong. */
export function parseSearchInput(
  input: string,
  facadeName: string,
  defaultLimit: number,
  maxLimit: number,
): SearchInput | string {
  const usage = `Call '${facadeName}' with {"query": "<what you want to do>"} and optionally "limit" (1 to ${maxLimit}).`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(input.trim() === "" ? "{}" : input);
  } catch {
    return `The arguments are not valid JSON. ${usage}`;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return `The arguments must be a JSON object. ${usage}`;
  }
  const { query, limit } = parsed as { query?: unknown; limit?: unknown };
  if (typeof query !== "string" || query.trim() === "") {
    return `The query is empty: say what you want to do in a few words. ${usage}`;
  }
  if (limit === undefined || limit === null) return { query: query.trim(), limit: defaultLimit };
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    return `The limit must be a whole number from 1 to ${maxLimit}, got ${JSON.stringify(limit)}. ${usage}`;
  }
  return { query: query.trim(), limit };
}

/** What a search answers when it found tools (which are now offered). */
export function foundMessage(query: string, tools: readonly Tool[]): string {
  const lines = tools.map((tool) => `- ${tool.definition.name}: ${shortened(tool.definition.description)}`);
  return [
    `Found ${tools.length} tool${tools.length === 1 ? "" : "s"} for "${query}"; you can now call ${tools.length === 1 ? "it" : "them"} directly:`,
    ...lines,
    "If none of them fits, search again with other words.",
  ].join("\n");
}

/** What a search answers when nothing matched (the tool list stays as it is). */
export function noMatchMessage(facadeName: string, query: string): string {
  return `No tools matched "${query}", so the available tools are unchanged. Call '${facadeName}' again with other words (the action and the thing it acts on, e.g. "create issue"), or use the tools you already have.`;
}
