// The skills layer: Agent Skills folders as one progressive facade with one-shot activation.

export { ReadSkillFileTool } from "./read-skill-file-tool.js";
export {
  RunSkillScriptTool,
  type SkillScriptCall,
  type SkillScriptOptions,
} from "./run-skill-script-tool.js";
export { Skill, type SkillInit } from "./skill.js";
export type { SkillProblem } from "./skill-problems.js";
export type { SkillFrontMatter } from "./skill-validation.js";
export { SKILLS_TOOL_GROUP_ROLE, Skills, type SkillsOptions } from "./skills.js";
export { SkillsTool } from "./skills-tool.js";
