import { dirname, resolve } from "node:path";
import { ToolGroup } from "../prompt/tool-group.js";
import { SKILLS_TOOL_GROUP_ROLE, Skills } from "../skills/skills.js";
import { type EmbabelConfig, loadConfig } from "./cli-config.js";
import type { ExampleDefinition } from "./example-definition.js";

/**
 * The Agent Skills folders of a run, absolute and without repeats: the
 * examples' own config files' `skills`, then the user's config's, then
 * `--skills` (relative to `cwd`).
 */
export function skillDirectories(
  config: EmbabelConfig,
  examples: readonly ExampleDefinition[],
  flags: readonly string[] | undefined,
  cwd: string,
): string[] {
  const dirs: string[] = [];
  for (const example of examples) {
    if (!example.configFile) continue;
    dirs.push(...(loadConfig(dirname(example.configFile), example.configFile).config.skills ?? []));
  }
  dirs.push(...(config.skills ?? []));
  dirs.push(...(flags ?? []).map((dir) => resolve(cwd, dir)));
  return [...new Set(dirs)];
}

/**
 * The `skills` tool group over `dirs` (loaded now, so a broken `SKILL.md`
 * stops the run before it starts), or none when there are no folders.
 */
export async function skillsToolGroups(dirs: readonly string[]): Promise<Record<string, ToolGroup>> {
  if (dirs.length === 0) return {};
  const skills = await Skills.fromDirectories(dirs);
  return { [SKILLS_TOOL_GROUP_ROLE]: skills.asToolGroup() };
}

/**
 * The `skills` tool group over `dirs`, loaded when an agent first asks for it
 * (for commands that set a platform up synchronously: `mcp-serve`, `worker`);
 * a broken `SKILL.md` then fails that use, naming every problem.
 */
export function lazySkillsToolGroups(dirs: readonly string[]): Record<string, ToolGroup> {
  if (dirs.length === 0) return {};
  const group = ToolGroup.of(
    { role: SKILLS_TOOL_GROUP_ROLE, description: `Agent Skills from ${dirs.join(", ")}` },
    async () => [(await Skills.fromDirectories(dirs)).asTool()],
    { provider: "embabel-skills" },
  );
  return { [SKILLS_TOOL_GROUP_ROLE]: group };
}
