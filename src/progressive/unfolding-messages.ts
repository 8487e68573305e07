import { appendNote } from "../tool/abstract-tool.js";
import type { Tool } from "../tool/tool.js";

/** Notes worth showing: non-blank text, verbatim; otherwise `undefined`. */
export function usableNotes(notes: string | undefined | null): string | undefined {
  return notes !== undefined && notes !== null && notes.trim().length > 0 ? notes : undefined;
}

function namesOf(tools: readonly Tool[]): string {
  return tools.map((tool) => tool.definition.name).join(", ");
}

function childLines(tools: readonly Tool[]): string {
  return tools.map((tool) => `- ${tool.definition.name}: ${tool.definition.description}`).join("\n");
}

/** What a facade answers when it unfolds (the reference's exact wording). */
export function unfoldedMessage(tools: readonly Tool[], notes?: string): string {
  const message = `Tools now available: ${namesOf(tools)}. You MUST call one of these tools to complete the user's request. Do NOT respond with text — call a tool.`;
  const usable = usableNotes(notes);
  return usable === undefined ? message : `${message}\n\n${usable}`;
}

/** What a facade answers when its selection is empty (the tool list stays as it is). */
export function nothingSelectedMessage(facadeName: string): string {
  return `No tools matched this input to '${facadeName}', so the available tools are unchanged. Call '${facadeName}' again with different arguments, or use one of the tools you already have.`;
}

/** What the guide tool (the facade's name, after unfolding) answers. */
export function guideMessage(children: readonly Tool[], notes?: string): string {
  const usable = usableNotes(notes);
  const text = `Use one of these tools directly:\n${childLines(children)}${usable === undefined ? "" : `\n\n${usable}`}`;
  return text.trim();
}

/** The description of the `<name>_context` tool. */
export function contextToolDescription(
  parentDescription: string,
  children: readonly Tool[],
  notes?: string,
): string {
  const usable = usableNotes(notes);
  const description = appendNote(parentDescription, `Available: ${namesOf(children)}`);
  return usable === undefined ? description : appendNote(description, usable);
}

/** What the `<name>_context` tool answers the first time in a loop. */
export function contextToolMessage(
  parentDescription: string,
  children: readonly Tool[],
  notes?: string,
): string {
  const usable = usableNotes(notes);
  const text = `Tools for ${parentDescription}:\n${childLines(children)}${usable === undefined ? "" : `\n\nUsage notes: ${usable}`}`;
  return text.trim();
}

/** What the `<name>_context` tool answers when called again in the same loop. */
export function contextToolRepeatMessage(facadeName: string, children: readonly Tool[]): string {
  return `The usage notes for '${facadeName}' were returned earlier in this turn; call one of: ${namesOf(children)}.`;
}
