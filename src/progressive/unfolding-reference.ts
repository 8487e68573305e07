import { LlmReference } from "../prompt/llm-reference.js";
import { UnfoldingTool, type UnfoldingToolOptions } from "./unfolding-tool.js";

const UNFOLDED_REFERENCE = Symbol.for("embabel-ts.unfolding-reference");

/**
 * The chapter's `LlmReference.withUnfolding` (it lives here because
 * `UnfoldingTool` is a layer above `LlmReference`): the same reference (name,
 * description, notes in the system prompt) whose tools are one
 * {@link UnfoldingTool} named after the reference's tool prefix, described by
 * the reference's description, that unfolds into the reference's tools (named
 * `<prefix>_<name>`, as `withReference` names them). A reference without
 * tools offers none; wrapping twice changes nothing.
 *
 * @example
 * ai.withReference(unfoldingReference(apiDocs, { childToolUsageNotes: "Search before you fetch." }))
 */
export function unfoldingReference(
  reference: LlmReference,
  options: UnfoldingToolOptions = {},
): LlmReference {
  if ((reference as unknown as Record<symbol, unknown>)[UNFOLDED_REFERENCE] === true) return reference;
  const wrapped: LlmReference = {
    name: reference.name,
    description: reference.description,
    notes: () => reference.notes(),
    async tools() {
      const tools = await LlmReference.prefixedTools(reference);
      if (tools.length === 0) return [];
      return [UnfoldingTool.of(LlmReference.toolPrefix(reference), reference.description, tools, options)];
    },
  };
  Object.defineProperty(wrapped, UNFOLDED_REFERENCE, { value: true });
  return Object.freeze(wrapped);
}
