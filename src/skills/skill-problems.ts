import { ConfigurationError } from "../errors/configuration-error.js";

/** One thing wrong with a skill: the file, the front-matter field (or `(file)`), and what is wrong. */
export interface SkillProblem {
  /** The `SKILL.md` (or, for skills made in code, `Skill.of('<name>')`). */
  readonly file: string;
  /** The front-matter field, `(front matter)` or `(file)`. */
  readonly field: string;
  /** What is wrong, and what to write instead. */
  readonly message: string;
}

/** Throws one {@link ConfigurationError} listing every problem (nothing when there are none). */
export function throwIfProblems(problems: readonly SkillProblem[]): void {
  if (problems.length === 0) return;
  const lines = problems.map((problem) => `  ${problem.file}: ${problem.field}: ${problem.message}`);
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  throw new ConfigurationError(`Invalid skills (${count}):\n${lines.join("\n")}`);
}
