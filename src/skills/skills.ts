import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolGroup } from "../prompt/tool-group.js";
import { Logger } from "../tool/logger.js";
import type { Tool } from "../tool/tool.js";
import { READ_SKILL_FILE } from "./read-skill-file-tool.js";
import { RUN_SKILL_SCRIPT, type SkillScriptOptions } from "./run-skill-script-tool.js";
import { loadSkill, SKILL_FILE, type Skill } from "./skill.js";
import { type SkillProblem, throwIfProblems } from "./skill-problems.js";
import { SkillsTool } from "./skills-tool.js";

/** The tool group role the CLI registers skills under (`withToolGroup("skills")`). */
export const SKILLS_TOOL_GROUP_ROLE = "skills";

/** Options of a {@link Skills} collection and of the tools it makes. */
export interface SkillsOptions {
  /** The facade's tool name. @default "skills" */
  readonly name?: string;
  /** Offer `run_skill_script` for skills with a `scripts/` folder. Scripts never run otherwise. @default false */
  readonly runScripts?: boolean;
  /** Timeout, output cap, approval hook and environment of script runs (with `runScripts`). @default {} */
  readonly scripts?: SkillScriptOptions;
  /** The most bytes `read_skill_file` returns of one file (longer files are cut, with a note). @default 262144 */
  readonly maxReadBytes?: number;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The skill folders directly under `dir` (non-hidden folders holding a `SKILL.md`), sorted by name. */
async function skillFolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const folders: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue;
    const folder = join(dir, entry.name);
    if ((entry.isDirectory() || entry.isSymbolicLink()) && (await exists(join(folder, SKILL_FILE)))) {
      folders.push(folder);
    }
  }
  return folders;
}

/** Problems for skills whose names repeat (two folders, or a folder and a code skill). */
function duplicateProblems(skills: readonly Skill[]): SkillProblem[] {
  const seen = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const skill of skills) {
    const first = seen.get(skill.name);
    if (first) {
      problems.push({
        file: skill.source,
        field: "name",
        message: `'${skill.name}' is also the name of ${first.source}; skill names must be unique`,
      });
    } else seen.set(skill.name, skill);
  }
  return problems;
}

/**
 * A set of Agent Skills (https://agentskills.io): folders with a `SKILL.md`
 * whose front matter names and describes the skill and whose body instructs
 * the model, beside optional `references/`, `scripts/` and `assets/`. Loading
 * reads and validates only the front matter; `asTool()` offers them all as
 * one facade, and a skill's body and files are read when the model activates
 * it. Immutable: `with*` returns a new collection.
 */
export class Skills {
  private constructor(
    /** The skills, in the order the facade lists them. */
    readonly skills: readonly Skill[],
    private readonly options: SkillsOptions,
    private readonly allowedTools: readonly Tool[],
  ) {}

  /**
   * The skills in `dir`: each subfolder holding a `SKILL.md` (or `dir` itself
   * when it holds one). Every problem in every front matter is collected,
   * then thrown as one `ConfigurationError` naming each file and field.
   */
  static async fromDirectory(dir: string, options: SkillsOptions = {}): Promise<Skills> {
    return Skills.fromDirectories([dir], options);
  }

  /** The skills of several folders (as {@link Skills.fromDirectory}); names must be unique across them. */
  static async fromDirectories(dirs: readonly string[], options: SkillsOptions = {}): Promise<Skills> {
    const skills: Skill[] = [];
    const problems: SkillProblem[] = [];
    for (const given of dirs) {
      const dir = resolve(given);
      let folders: string[];
      try {
        folders = (await exists(join(dir, SKILL_FILE))) ? [dir] : await skillFolders(dir);
      } catch (error) {
        throw new ConfigurationError(`Cannot read the skills folder ${dir}: ${(error as Error).message}`, {
          cause: error,
        });
      }
      if (folders.length === 0) {
        throw new ConfigurationError(
          `No skills in ${dir}: no subfolder holds a ${SKILL_FILE} (a skill is a folder named after it, with a ${SKILL_FILE} inside).`,
        );
      }
      for (const loaded of await Promise.all(folders.map((folder) => loadSkill(folder)))) {
        problems.push(...loaded.problems);
        if (loaded.skill) skills.push(loaded.skill);
      }
    }
    problems.push(...duplicateProblems(skills));
    throwIfProblems(problems);
    return new Skills(Object.freeze(skills), options, []);
  }

  /** A collection of skills made in code (`Skill.of`) or loaded (`Skill.fromDirectory`). */
  static of(...skills: Skill[]): Skills {
    throwIfProblems(duplicateProblems(skills));
    return new Skills(Object.freeze([...skills]), {}, []);
  }

  /** The skills' names, in order. */
  get names(): readonly string[] {
    return this.skills.map((skill) => skill.name);
  }

  /** The skill called `name`, if any. */
  get(name: string): Skill | undefined {
    return this.skills.find((skill) => skill.name === name);
  }

  /** A copy with `options` merged in (later values win). */
  withOptions(options: SkillsOptions): Skills {
    return new Skills(this.skills, { ...this.options, ...options }, this.allowedTools);
  }

  /**
   * A copy that can offer `tools` to skills whose `allowed-tools` names them:
   * a tool is appended to the conversation when such a skill is activated,
   * and not before.
   */
  withTools(...tools: Tool[]): Skills {
    return new Skills(this.skills, this.options, [...this.allowedTools, ...tools]);
  }

  /** These skills and `other`'s (names must be unique), with this collection's options and both sets of tools. */
  merge(other: Skills): Skills {
    const skills = [...this.skills, ...other.skills];
    throwIfProblems(duplicateProblems(skills));
    return new Skills(Object.freeze(skills), this.options, [...this.allowedTools, ...other.allowedTools]);
  }

  /**
   * The facade the model sees: one tool listing every skill's name and
   * description; activating a skill answers with its instructions and offers
   * `read_skill_file`, `run_skill_script` (with `runScripts`) and its allowed
   * tools. An `allowed-tools` name that is neither a tool given with
   * {@link Skills.withTools} nor a skill tool is ignored, with one warning
   * through the logger.
   */
  asTool(options: SkillsOptions = {}): SkillsTool {
    const merged = { ...this.options, ...options };
    const name = merged.name ?? "skills";
    const allowed = new Map(this.allowedTools.map((tool) => [tool.definition.name, tool]));
    for (const reserved of [name, READ_SKILL_FILE, RUN_SKILL_SCRIPT]) {
      if (allowed.has(reserved)) {
        throw new ConfigurationError(
          `Skills: a tool given with withTools is named '${reserved}', which the skill tools use. Rename it (tool.withName("...")).`,
        );
      }
    }
    for (const skill of this.skills) {
      const unknown = skill.allowedTools.filter(
        (tool) => !allowed.has(tool) && tool !== READ_SKILL_FILE && tool !== RUN_SKILL_SCRIPT,
      );
      if (unknown.length > 0) {
        Logger.current().warn(
          `Skill '${skill.name}' allows tools that were not given to its Skills (ignored): ${unknown.join(", ")}. Offer them with skills.withTools(...).`,
          { skill: skill.name, source: skill.source },
        );
      }
    }
    return new SkillsTool({
      name,
      skills: this.skills,
      allowed,
      scripts: merged.runScripts ? (merged.scripts ?? {}) : undefined,
      ...(merged.maxReadBytes !== undefined ? { maxReadBytes: merged.maxReadBytes } : {}),
    });
  }

  /** A tool group (role `skills` unless given) whose one tool is {@link Skills.asTool}'s facade. */
  asToolGroup(role: string = SKILLS_TOOL_GROUP_ROLE): ToolGroup {
    return ToolGroup.of(
      { role, description: `Agent Skills: ${this.names.join(", ")}` },
      () => [this.asTool()],
      { provider: "embabel-skills" },
    );
  }
}
