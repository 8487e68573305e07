import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { LlmCallSettings, LlmUsage } from "../loop/tool-loop.js";
import type { ToolGroupResolver } from "./tool-group-registry.js";

// Placeholder until src/llm lands: the options `withLlm` accepts.
/** Which model to use and how (from `LlmOptions.withModel(...)` / `LlmOptions.withRole(...)`). */
export type LlmOptions = object;

/** A model chosen for an interaction, with its sampling settings. */
export interface ResolvedLlm {
  readonly model: LanguageModelV3;
  /** The platform's name for the model. */
  readonly name?: string;
  readonly settings?: LlmCallSettings;
}

/** What a prompt runner needs of the platform that made it. */
export interface PromptRunnerServices {
  /** The model for `options` (`undefined`: the `default` role); throws a configuration error when none fits. */
  resolveLlm(options: LlmOptions | undefined): ResolvedLlm;
  /** Where tool groups requested by role are found. */
  readonly toolGroups: ToolGroupResolver;
  /** Cost in US dollars of one call, when a price is known. */
  costOf?(call: {
    readonly provider: string;
    readonly modelId: string;
    readonly usage: LlmUsage;
  }): number | undefined;
}
