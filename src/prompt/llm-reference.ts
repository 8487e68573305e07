import type { Tool } from "../tool/tool.js";
import { normalizeToolName } from "../tool/tool-definition.js";
import { ToolObject } from "./tool-object.js";

/**
 * A named prompt contributor that also supplies tools (documentation, an API,
 * a memory). `PromptRunner.withReference` puts its description and notes in
 * the system prompt and offers its tools under `<prefix>_<name>`.
 */
export interface LlmReference {
  /** The reference's name; its normalised form is the tool prefix. */
  readonly name: string;
  /** What the reference is, for the LLM. */
  readonly description: string;
  /** How to use the reference and its tools (may be long; goes to the system prompt). */
  notes(): string;
  /** The tools it supplies, under their own names. */
  tools(): readonly Tool[] | Promise<readonly Tool[]>;
}

/** The prefix of a reference's tool names: its name normalised to `[a-z0-9_-]` (`My API Reference` → `my_api_reference`). */
function toolPrefix(reference: Pick<LlmReference, "name">): string {
  return normalizeToolName(reference.name);
}

/**
 * `<prefix>_<name>`, shortening the prefix when the whole would pass 64
 * characters; a name that is the prefix or already starts with `<prefix>_`
 * is kept (a reference's own facade, see `unfoldingReference`).
 */
function prefixedName(prefix: string, name: string): string {
  if (name === prefix || name.startsWith(`${prefix}_`)) return name;
  const room = 64 - name.length - 1;
  if (room < 1) return name;
  const head = prefix.slice(0, room).replace(/_+$/, "");
  return head.length > 0 ? `${head}_${name}` : name;
}

/** The system-prompt text a reference contributes. */
function contribution(reference: LlmReference): string {
  return [
    "",
    `Reference: ${reference.name}`,
    `Description: ${reference.description}`,
    `Tool prefix: ${toolPrefix(reference)}`,
    `Notes: ${reference.notes()}`,
  ].join("\n");
}

/** The reference's tools, renamed `<prefix>_<name>`. */
async function prefixedTools(reference: LlmReference): Promise<readonly Tool[]> {
  const prefix = toolPrefix(reference);
  const tools = await reference.tools();
  return tools.map((tool) => tool.withName(prefixedName(prefix, tool.definition.name)));
}

/** Factories and helpers for {@link LlmReference}. */
export const LlmReference = {
  /**
   * A reference with notes and tools: a list of tools, or a tool object whose
   * `@llmTool` methods are its tools (read on each use).
   */
  of(name: string, description: string, tools: readonly Tool[] | object, notes = ""): LlmReference {
    if (Array.isArray(tools)) {
      const fixed = Object.freeze([...tools]);
      return Object.freeze({ name, description, notes: () => notes, tools: () => fixed });
    }
    const object = ToolObject.of(tools);
    return Object.freeze({ name, description, notes: () => notes, tools: () => object.tools() });
  },
  /** The prefix of a reference's tool names: its name normalised to `[a-z0-9_-]`. */
  toolPrefix,
  /** The system-prompt text a reference contributes. */
  contribution,
  /** The reference's tools, renamed `<prefix>_<name>`. */
  prefixedTools,
  /** True for values shaped like an {@link LlmReference}. */
  isLlmReference(value: unknown): value is LlmReference {
    return (
      typeof value === "object" &&
      value !== null &&
      typeof (value as LlmReference).name === "string" &&
      typeof (value as LlmReference).description === "string" &&
      typeof (value as LlmReference).notes === "function" &&
      typeof (value as LlmReference).tools === "function"
    );
  },
};
