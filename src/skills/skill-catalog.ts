import type { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import type { Skill } from "./skill.js";
import type { SkillActivations } from "./skill-activations.js";

/** What the skill tools of one facade share: the skills by name, the activations, the facade's name. */
export interface SkillCatalog {
  readonly skills: ReadonlyMap<string, Skill>;
  readonly activations: SkillActivations;
  /** The facade's tool name (`skills` unless renamed), for messages. */
  readonly facadeName: string;
}

/** How to activate `name`, for messages. */
export function activationHint(catalog: SkillCatalog, name: string): string {
  return `call '${catalog.facadeName}' with {"skill": "${name}"}`;
}

/**
 * The active skill a skill tool's call names, or the in-band error to answer:
 * no such skill, or a skill not activated in this conversation yet.
 */
export function activeSkill(
  catalog: SkillCatalog,
  context: ToolCallContext,
  name: unknown,
): Skill | ToolResult {
  const active = catalog.activations.active(context);
  if (typeof name !== "string" || name.trim() === "") {
    return ToolResult.error(
      `Name the skill: "skill" must be one of the active skills (${active.join(", ") || "none yet"}).`,
    );
  }
  const skill = catalog.skills.get(name.trim());
  if (!skill) {
    return ToolResult.error(
      `There is no skill named '${name}'. Active skills: ${active.join(", ") || "none yet"}.`,
    );
  }
  if (!catalog.activations.isActive(context, skill.name)) {
    return ToolResult.error(
      `The skill '${skill.name}' is not active. To use it, first ${activationHint(catalog, skill.name)}.`,
    );
  }
  return skill;
}
