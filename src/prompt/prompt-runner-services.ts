import type { LlmOptions } from "../llm/llm-options.js";
import type { ResolvedLlm } from "../llm/model-registry.js";
import type { LlmUsage } from "../loop/tool-loop.js";
import type { ApprovalAuthority } from "../tool/approval-authority.js";
import type { ToolGroupResolver } from "./tool-group-registry.js";

/** What a prompt runner needs of the platform that made it. */
export interface PromptRunnerServices {
  /** The model for `options` (`undefined`: the `default` role); rejects with a configuration error when none fits. */
  resolveLlm(options: LlmOptions | undefined): ResolvedLlm | Promise<ResolvedLlm>;
  /** Retries of a failed model call when neither the runner nor the process sets them. @default undefined (the tool loop's default, 2) */
  readonly maxRetries?: number;
  /** Where tool groups requested by role are found. */
  readonly toolGroups: ToolGroupResolver;
  /** Who answers approvals of calls made outside any agent process (the platform's `onApproval`). @default undefined (nobody: such a call throws) */
  readonly approvals?: ApprovalAuthority;
  /** Runs `fn` in a short-lived process of the platform (for tools that need one, called outside any process). */
  readonly inProcess?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Cost in US dollars of one call, when a price is known. */
  costOf?(call: {
    readonly provider: string;
    readonly modelId: string;
    readonly usage: LlmUsage;
  }): number | undefined;
}
