import { readFile, realpath, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { ConfigurationError } from "../errors/configuration-error.js";
import { readFrontMatter, splitSkillFile } from "./skill-front-matter.js";
import { type SkillProblem, throwIfProblems } from "./skill-problems.js";
import { parseFrontMatterYaml, type SkillFrontMatter, validateFrontMatter } from "./skill-validation.js";

/** The file that makes a folder a skill. */
export const SKILL_FILE = "SKILL.md";

/** A skill written in code (`Skill.of`): the front-matter fields and the instructions. */
export interface SkillInit {
  /** Lowercase letters, digits and single hyphens, at most 64 characters. */
  readonly name: string;
  /** What the skill does and when to use it (at most 1,024 characters, no angle brackets). */
  readonly description: string;
  /** The body the model gets on activation, or a function producing it (called on each activation). */
  readonly instructions: string | (() => string | Promise<string>);
  /** @default none */
  readonly license?: string;
  /** @default none */
  readonly compatibility?: string;
  /** @default {} */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Tools the skill may use while active: names, or one space-separated string. @default [] */
  readonly allowedTools?: readonly string[] | string;
}

type Instructions = () => Promise<string>;

/**
 * One Agent Skill: its front matter, read and validated when loaded, and its
 * instructions (the body of `SKILL.md`), read only when the skill is
 * activated. A skill from a folder may also have files (`references/`,
 * `scripts/`, `assets/`) the model can read once the skill is active.
 */
export class Skill implements SkillFrontMatter {
  readonly name: string;
  readonly description: string;
  readonly license?: string;
  readonly compatibility?: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly allowedTools: readonly string[];

  private constructor(
    frontMatter: SkillFrontMatter,
    /** The skill's folder (its real path), or `undefined` for a skill made in code. */
    readonly folder: string | undefined,
    /** Where the skill came from, for messages: its `SKILL.md`, or `Skill.of('<name>')`. */
    readonly source: string,
    private readonly body: Instructions,
  ) {
    this.name = frontMatter.name;
    this.description = frontMatter.description;
    if (frontMatter.license !== undefined) this.license = frontMatter.license;
    if (frontMatter.compatibility !== undefined) this.compatibility = frontMatter.compatibility;
    this.metadata = frontMatter.metadata;
    this.allowedTools = frontMatter.allowedTools;
    Object.freeze(this);
  }

  /** The instructions: the body of `SKILL.md` as it is on disk now (read on each call), or the code skill's text. */
  instructions(): Promise<string> {
    return this.body();
  }

  /**
   * The skill in `folder` (which holds a `SKILL.md`). Reads only the front
   * matter; a `ConfigurationError` lists every problem, naming file and field.
   */
  static async fromDirectory(folder: string): Promise<Skill> {
    const loaded = await loadSkill(resolve(folder));
    throwIfProblems(loaded.problems);
    return loaded.skill as Skill;
  }

  /** A skill written in code, validated as a `SKILL.md`'s front matter would be. */
  static of(init: SkillInit): Skill {
    const source = `Skill.of('${init.name}')`;
    const raw: Record<string, unknown> = { name: init.name, description: init.description };
    if (init.license !== undefined) raw.license = init.license;
    if (init.compatibility !== undefined) raw.compatibility = init.compatibility;
    if (init.metadata !== undefined) raw.metadata = init.metadata;
    if (init.allowedTools !== undefined) raw["allowed-tools"] = init.allowedTools;
    const { frontMatter, problems } = validateFrontMatter(raw, source);
    const instructions = init.instructions;
    if (typeof instructions !== "string" && typeof instructions !== "function") {
      throw new ConfigurationError(`${source}: instructions must be a string or a function returning one.`);
    }
    throwIfProblems(problems);
    const body: Instructions =
      typeof instructions === "string" ? async () => instructions : async () => instructions();
    return new Skill(frontMatter as SkillFrontMatter, undefined, source, body);
  }

  /** @internal Builds a folder skill from validated front matter (used by the loaders). */
  static fromValidated(frontMatter: SkillFrontMatter, folder: string, file: string): Skill {
    return new Skill(frontMatter, folder, file, () => readBody(file));
  }
}

/** The body of the `SKILL.md` at `file`, as it is now. */
async function readBody(file: string): Promise<string> {
  const text = await readFile(file, "utf8");
  return (splitSkillFile(text)?.body ?? "").replace(/^\s*\n/, "").trimEnd();
}

/** Loads the skill in `folder`, collecting problems instead of throwing. */
export async function loadSkill(
  folder: string,
): Promise<{ readonly skill?: Skill; readonly problems: readonly SkillProblem[] }> {
  const file = join(folder, SKILL_FILE);
  let real: string;
  try {
    real = await realpath(folder);
    if (!(await stat(join(real, SKILL_FILE))).isFile()) throw new Error(`${SKILL_FILE} is not a file`);
  } catch (error) {
    return { problems: [{ file, field: "(file)", message: `cannot be read: ${(error as Error).message}` }] };
  }
  const text = await readFrontMatter(join(real, SKILL_FILE));
  if (text.kind === "missing")
    return { problems: [{ file, field: "(front matter)", message: text.problem }] };
  const parsed = await parseFrontMatterYaml(text.yaml, file);
  if (parsed.problems.length > 0) return { problems: parsed.problems };
  const { frontMatter, problems } = validateFrontMatter(parsed.value, file, basename(folder));
  if (!frontMatter) return { problems };
  return { skill: Skill.fromValidated(frontMatter, real, join(real, SKILL_FILE)), problems };
}
