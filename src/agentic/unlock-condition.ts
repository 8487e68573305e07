import type { Blackboard } from "../platform/blackboard.js";
import type { TypeToken } from "../tool/type-token.js";

/** What a playbook's unlock conditions see: the calls and artifacts of this run so far, and the process's blackboard. */
export interface PlaybookContext {
  /** Names of the tools called successfully or not (locked calls excluded). */
  readonly calledToolNames: ReadonlySet<string>;
  /** Artifacts the playbook's tools returned, in order (lists element by element). */
  readonly artifacts: readonly unknown[];
  /** How many tool calls were recorded. */
  readonly iterationCount: number;
  /** The blackboard of the process the tool runs in. */
  readonly blackboard: Blackboard;
}

/** When a playbook tool unlocks. */
export type UnlockCondition =
  | { readonly kind: "after-tools"; readonly toolNames: readonly string[] }
  | { readonly kind: "on-artifact"; readonly type: TypeToken }
  | {
      readonly kind: "when";
      /** Unlocks when this returns true for the playbook's state. */
      readonly predicate: (context: PlaybookContext) => boolean;
    }
  | { readonly kind: "all-of"; readonly conditions: readonly UnlockCondition[] }
  | { readonly kind: "any-of"; readonly conditions: readonly UnlockCondition[] };

/** Whether `condition` holds in `context`. */
export function isUnlocked(condition: UnlockCondition, context: PlaybookContext): boolean {
  switch (condition.kind) {
    case "after-tools":
      return condition.toolNames.every((name) => context.calledToolNames.has(name));
    case "on-artifact":
      return context.artifacts.some((artifact) => condition.type.is(artifact));
    case "when":
      return condition.predicate(context);
    case "all-of":
      return condition.conditions.every((inner) => isUnlocked(inner, context));
    case "any-of":
      return condition.conditions.some((inner) => isUnlocked(inner, context));
  }
}

/** What the LLM is told about a tool that is still locked. */
export function lockedMessage(condition: UnlockCondition, context: PlaybookContext): string {
  return `This tool is not yet available. ${hint(condition, context)}`;
}

function hint(condition: UnlockCondition, context: PlaybookContext): string {
  switch (condition.kind) {
    case "after-tools": {
      const missing = condition.toolNames.filter((name) => !context.calledToolNames.has(name));
      return `You must first use: ${missing.join(", ")}`;
    }
    case "on-artifact":
      return `You must first produce an artifact of type: ${condition.type.name}`;
    case "all-of":
      return "Multiple conditions must be met before this tool is available.";
    case "any-of":
      return "At least one prerequisite condition must be met.";
    case "when":
      return "Prerequisites have not been met yet.";
  }
}
