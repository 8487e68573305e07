import type { ToolChainingConfig } from "../chaining/tool-chaining.js";
import type { LlmOptions } from "../llm/llm-options.js";
import type { ToolInjectionStrategy } from "../loop/tool-injection-strategy.js";
import type { ApprovalAuthority } from "../tool/approval-authority.js";
import type { ToolCallContext } from "../tool/tool-call-context.js";
import type { LlmReference } from "./llm-reference.js";
import type { PromptRunnerServices } from "./prompt-runner-services.js";
import type { ToolSource } from "./tool-source.js";

/** Everything a prompt runner has been configured with (immutable). */
export interface PromptRunnerState {
  readonly services: PromptRunnerServices;
  /** `undefined`: the platform's `default` role. */
  readonly llm: LlmOptions | undefined;
  readonly sources: readonly ToolSource[];
  readonly references: readonly LlmReference[];
  readonly context: ToolCallContext;
  readonly systemPrompts: readonly string[];
  readonly maxIterations: number;
  /** `undefined`: the process's `maxRetries`, else the platform's, else the loop's default (2). */
  readonly maxRetries: number | undefined;
  /** `undefined`: the loop's default (100000). */
  readonly maxToolResultChars: number | undefined;
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly signal: AbortSignal | undefined;
  /** Tool chaining (types whose returned instances become tools). */
  readonly chaining: ToolChainingConfig;
  /** The interaction's name, carried by its LLM call events; `undefined`: unnamed. */
  readonly interactionId: string | undefined;
  /** Who answers approvals (`withApproval`); `undefined`: the agent process, else the platform's `onApproval`. */
  readonly approvals: ApprovalAuthority | undefined;
}
