import type { ToolCallContext } from "../tool/tool-call-context.js";

/** Loops remembered; the oldest is forgotten first. */
const MAX_LOOPS = 1024;

/**
 * Which skills were activated in which tool loop (by `loopId()`; calls
 * without one share a single record). The skill tools consult it so that a
 * skill's files are readable, and its scripts runnable, only once that skill
 * is active in the conversation.
 */
export class SkillActivations {
  private readonly loops = new Map<string, Set<string>>();

  /** Records that `skill` is active in the context's loop. */
  activate(context: ToolCallContext, skill: string): void {
    const loopId = context.loopId() ?? "";
    let active = this.loops.get(loopId);
    if (!active) {
      active = new Set();
      this.loops.set(loopId, active);
      if (this.loops.size > MAX_LOOPS) {
        const oldest = this.loops.keys().next();
        if (!oldest.done) this.loops.delete(oldest.value);
      }
    }
    active.add(skill);
  }

  /** The skills active in the context's loop, in activation order. */
  active(context: ToolCallContext): readonly string[] {
    return [...(this.loops.get(context.loopId() ?? "") ?? [])];
  }

  /** True when `skill` is active in the context's loop. */
  isActive(context: ToolCallContext, skill: string): boolean {
    return this.loops.get(context.loopId() ?? "")?.has(skill) ?? false;
  }
}
