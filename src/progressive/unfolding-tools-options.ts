import { type DecoratorMetadataObject, decoratorMetadataOf } from "../tool/decorator-metadata.js";

/** Options of the {@link unfoldingTools} class decorator. */
export interface UnfoldingToolsOptions {
  /** The facade's tool name, the one the LLM sees first. */
  readonly name: string;
  /** What the facade's tools are for; the LLM reads it to decide when to unfold. */
  readonly description: string;
  /** When and how to use the child tools; shown once, in the unfolded message and the context tool. @default none */
  readonly childToolUsageNotes?: string;
  /** The parameter name of a category facade (when some `@llmTool` has a `category`). @default "category" */
  readonly categoryParameter?: string;
  /** Unfolding removes every other tool. @default false */
  readonly exclusive?: boolean;
  /**
   * @deprecated Ignored: after unfolding, the facade is always replaced by its guide tool.
   * @default true
   */
  readonly removeOnInvoke?: boolean;
}

const KEY = Symbol.for("embabel-ts.unfolding-tools");

/** Records a class's `@unfoldingTools` options in its decorator metadata. */
export function recordUnfoldingTools(
  metadata: DecoratorMetadataObject,
  options: UnfoldingToolsOptions,
): void {
  metadata[KEY] = options;
}

/**
 * The `@unfoldingTools` options of a class, or of an instance's class
 * (inherited from a decorated superclass); `undefined` when there are none.
 */
export function unfoldingToolsOptionsOf(target: object): UnfoldingToolsOptions | undefined {
  return decoratorMetadataOf(target)?.[KEY] as UnfoldingToolsOptions | undefined;
}
