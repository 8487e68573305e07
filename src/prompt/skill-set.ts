import type { Tool } from "../tool/tool.js";

/**
 * Agent Skills as one tool: what `PromptRunner.withSkills` and
 * `AgenticTool.withSkills` accept. The skills layer's `Skills` is one.
 */
export interface SkillSet {
  /** The facade listing the skills; activating one offers its instructions and tools. */
  asTool(): Tool;
}
