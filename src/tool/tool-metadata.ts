/** How the tool loop treats a tool; never sent to the LLM. */
export interface ToolMetadata {
  /** The tool's result is the final answer: no further LLM call. @default false */
  readonly returnDirect: boolean;
  /** Provider-specific settings passed through with the definition. @default {} */
  readonly providerMetadata: Readonly<Record<string, unknown>>;
}

const DEFAULT: ToolMetadata = Object.freeze({ returnDirect: false, providerMetadata: Object.freeze({}) });

/** Factories for {@link ToolMetadata}. */
export const ToolMetadata = {
  /** `returnDirect: false`, no provider metadata. */
  DEFAULT,
  /** Metadata with the given settings. */
  create(options: { returnDirect?: boolean; providerMetadata?: Record<string, unknown> } = {}): ToolMetadata {
    if (!options.returnDirect && !options.providerMetadata) return DEFAULT;
    return Object.freeze({
      returnDirect: options.returnDirect ?? false,
      providerMetadata: Object.freeze({ ...(options.providerMetadata ?? {}) }),
    });
  },
  /** True for metadata objects (as opposed to input schemas or handlers). */
  isToolMetadata(value: unknown): value is ToolMetadata {
    return (
      typeof value === "object" &&
      value !== null &&
      typeof (value as ToolMetadata).returnDirect === "boolean" &&
      typeof (value as ToolMetadata).providerMetadata === "object"
    );
  },
};
