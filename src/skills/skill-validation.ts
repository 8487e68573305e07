import type { SkillProblem } from "./skill-problems.js";

/** The validated front matter of a skill (the Agent Skills specification's fields). */
export interface SkillFrontMatter {
  /** Lowercase letters, digits and single hyphens, at most 64 characters; the folder's name. */
  readonly name: string;
  /** What the skill does and when to use it; at most 1,024 characters, no angle brackets. */
  readonly description: string;
  /** The skill's license (a name or a bundled file). @default none */
  readonly license?: string;
  /** What the skill needs from its environment; at most 500 characters. @default none */
  readonly compatibility?: string;
  /** Extra string properties. @default {} */
  readonly metadata: Readonly<Record<string, string>>;
  /** Names of tools the skill may use while active (`allowed-tools`). @default [] */
  readonly allowedTools: readonly string[];
}

/** The fields the specification allows; anything else is refused. */
export const FRONT_MATTER_FIELDS = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
] as const;

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nameProblem(value: unknown, folderName: string | undefined): string | undefined {
  if (value === undefined) return "is required";
  if (typeof value !== "string") return "must be a string";
  if (value.length === 0) return "must not be empty";
  if (value.length > MAX_NAME) return `is ${value.length} characters; at most ${MAX_NAME} are allowed`;
  if (!NAME.test(value)) {
    return `'${value}' may hold only lowercase letters, digits and single hyphens, not at the start or end`;
  }
  if (folderName !== undefined && value !== folderName) {
    return `'${value}' must equal the skill's folder name '${folderName}'`;
  }
  return undefined;
}

function descriptionProblem(value: unknown): string | undefined {
  if (value === undefined) return "is required";
  if (typeof value !== "string") return "must be a string";
  if (value.trim().length === 0) return "must not be empty";
  if (value.length > MAX_DESCRIPTION) {
    return `is ${value.length} characters; at most ${MAX_DESCRIPTION} are allowed`;
  }
  if (/[<>]/.test(value)) return "must not contain angle brackets (< or >)";
  return undefined;
}

/**
 * Checks parsed front matter against the Agent Skills specification and
 * returns every problem found (none: `frontMatter` is set). `folderName` is
 * the folder the skill lives in, which `name` must equal.
 */
export function validateFrontMatter(
  raw: unknown,
  file: string,
  folderName?: string,
): { readonly frontMatter?: SkillFrontMatter; readonly problems: readonly SkillProblem[] } {
  const problems: SkillProblem[] = [];
  const problem = (field: string, message: string): void => {
    problems.push({ file, field, message });
  };
  if (!isRecord(raw)) {
    problem("(front matter)", "must be a YAML mapping with at least 'name' and 'description'");
    return { problems };
  }
  for (const key of Object.keys(raw)) {
    if (!(FRONT_MATTER_FIELDS as readonly string[]).includes(key)) {
      problem(
        key,
        `unknown field; allowed: ${FRONT_MATTER_FIELDS.join(", ")} (put extra data under 'metadata')`,
      );
    }
  }
  const name = nameProblem(raw.name, folderName);
  if (name) problem("name", name);
  const description = descriptionProblem(raw.description);
  if (description) problem("description", description);
  for (const key of ["license", "compatibility"] as const) {
    const value = raw[key];
    if (value !== undefined && typeof value !== "string") problem(key, "must be a string");
  }
  if (typeof raw.compatibility === "string" && raw.compatibility.trim().length === 0) {
    problem("compatibility", "must not be empty when given (leave it out instead)");
  }
  if (typeof raw.compatibility === "string" && raw.compatibility.length > MAX_COMPATIBILITY) {
    problem(
      "compatibility",
      `is ${raw.compatibility.length} characters; at most ${MAX_COMPATIBILITY} are allowed`,
    );
  }
  const metadata = raw.metadata;
  if (metadata !== undefined) {
    if (!isRecord(metadata)) problem("metadata", "must be a mapping of names to strings");
    else {
      for (const [key, value] of Object.entries(metadata)) {
        if (typeof value !== "string") {
          problem(`metadata.${key}`, `must be a string (quote it: ${key}: "${String(value)}")`);
        }
      }
    }
  }
  const allowed = raw["allowed-tools"];
  const allowedTools = allowedToolsOf(allowed);
  if (allowed !== undefined && allowedTools === undefined) {
    problem("allowed-tools", "must be a space-separated string of tool names (or a list of names)");
  }
  if (problems.length > 0) return { problems };
  return {
    problems,
    frontMatter: Object.freeze({
      name: raw.name as string,
      description: raw.description as string,
      ...(typeof raw.license === "string" ? { license: raw.license } : {}),
      ...(typeof raw.compatibility === "string" ? { compatibility: raw.compatibility } : {}),
      metadata: Object.freeze({ ...((metadata as Record<string, string> | undefined) ?? {}) }),
      allowedTools: Object.freeze(allowedTools ?? []),
    }),
  };
}

/** `allowed-tools` as names: a space-separated string, or a list of strings; `undefined` when malformed. */
function allowedToolsOf(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.split(/\s+/).filter((name) => name.length > 0);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value.map((item: string) => item.trim()).filter((name) => name.length > 0);
  }
  return undefined;
}

/** Parses front-matter YAML, loading the `yaml` package on first use; a syntax error is a problem. */
export async function parseFrontMatterYaml(
  yaml: string,
  file: string,
): Promise<{ readonly value?: unknown; readonly problems: readonly SkillProblem[] }> {
  const { parse } = await import("yaml");
  try {
    return { value: parse(yaml) ?? {}, problems: [] };
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "invalid YAML";
    return { problems: [{ file, field: "(front matter)", message: `is not valid YAML: ${message}` }] };
  }
}
