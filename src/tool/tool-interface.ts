// The Tool interface and its per-call options, below every tool builder: the
// builders (function, method, typed, wrapping tools) name these types, and
// tool.ts, which holds the `Tool` factories, imports the builders; a type
// here would otherwise close a circle through tool.ts.
import type { ApprovalAuthority } from "./approval-authority.js";
import type { ToolCallContext } from "./tool-call-context.js";
import type { ToolDefinition } from "./tool-definition.js";
import type { ToolMetadata } from "./tool-metadata.js";
import type { ToolResult } from "./tool-result.js";

/** Per-call options that are not part of the tool's input. */
export interface ToolCallOptions {
  /** Aborts the call (model-driven loops pass theirs down). */
  readonly signal?: AbortSignal;
  /**
   * Runs `fn` inside a short-lived agent process of the platform whose runner
   * called the tool, resolving to `fn`'s value (rejecting when the process
   * does not complete). Set by the tool loop of a platform's runner; tools
   * that need a process (agentic tools) use it when called outside one.
   */
  readonly inProcess?: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * Our stable id of this call site (the loop's `<loopId>/<round>.<index>`),
   * set by the approval gate: a tool that calls inner tools (a facade's
   * shortcut) keys their approvals under it.
   */
  readonly callKey?: string;
  /** Who answers approvals for calls made inside this one (set by the loop). @default undefined (the ambient agent process) */
  readonly approvals?: ApprovalAuthority;
}

/**
 * A framework-agnostic tool: a definition the LLM sees, metadata the loop
 * reads, and an async call taking the LLM's raw JSON arguments plus an
 * out-of-band {@link ToolCallContext}.
 */
export interface Tool {
  /** What the LLM is told: name, description, input schema (and application metadata it never sees). */
  readonly definition: ToolDefinition;
  /** How the loop treats the tool (`returnDirect`); never sent to the LLM. */
  readonly metadata: ToolMetadata;
  /** Runs the tool. `input` is the raw JSON text the LLM produced. */
  call(input: string, context?: ToolCallContext, options?: ToolCallOptions): Promise<ToolResult>;
  /** A copy with another name. */
  withName(name: string): Tool;
  /** A copy with another description. */
  withDescription(description: string): Tool;
  /** A copy whose description has `". <note>"` appended. */
  withNote(note: string): Tool;
  /** A copy with definition metadata merged in. */
  withDefinitionMetadata(metadata: Readonly<Record<string, unknown>>): Tool;
}
