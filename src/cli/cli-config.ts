import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, resolve } from "node:path";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { didYouMean } from "./did-you-mean.js";

/** The config file names looked for in the working directory, in order. */
export const CONFIG_FILE_NAMES = [
  "embabel.config.json",
  "embabel.config.yaml",
  "embabel.config.yml",
] as const;

const modelEntry = z.union(
  [
    z.string().min(1),
    z
      .object({
        id: z.string().min(1),
        baseURL: z.string().min(1).optional(),
      })
      .strict(),
  ],
  {
    error:
      'expected a model id ("openai:gpt-4.1") or { "id": "openai-compatible:<model>", "baseURL": "http://…" }',
  },
);

const configSchema = z
  .object({
    models: z.record(z.string(), modelEntry).optional(),
    roles: z.record(z.string(), z.string().min(1)).optional(),
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    toolGroups: z.record(z.string(), z.unknown()).optional(),
    skills: z.array(z.string().min(1)).optional(),
    searchableAbove: z.number().int().min(0).optional(),
  })
  .strict();

/** A model as the config file names it: an id (`openai:gpt-4.1`), optionally with a base URL. */
export interface ConfiguredModel {
  /** `<provider>:<model>`, e.g. `openai:gpt-4.1`, `anthropic:claude-sonnet-4-5`, `ollama:qwen2.5`. */
  readonly id: string;
  /** The server of an `openai-compatible:<model>` id (same as writing `openai-compatible:<model>@<baseURL>`). */
  readonly baseURL?: string;
}

/** The contents of `embabel.config.json` / `.yaml`. */
export interface EmbabelConfig {
  /** Model names to models. */
  readonly models: Readonly<Record<string, ConfiguredModel>>;
  /** Roles (`default`, `smart`, `fast`, …) to model names. */
  readonly roles: Readonly<Record<string, string>>;
  /** MCP servers in the Claude Desktop / Cursor format, started when an agent first needs their tools. */
  readonly mcpServers: Readonly<Record<string, unknown>>;
  /** Tool groups by role over the MCP servers: `{ description, provider, tools }` (a tool is included when its name ends with a listed name). @default {} */
  readonly toolGroups?: Readonly<Record<string, unknown>>;
  /** Agent Skills folders (absolute: relative ones resolve against the config file's folder), offered as the `skills` tool group. @default [] */
  readonly skills?: readonly string[];
  /** Tool groups with more tools than this are offered behind one search tool (`AgentPlatform.create({ searchableAbove })`). @default none */
  readonly searchableAbove?: number;
  /** The folder of the config file: relative `cwd`s of stdio servers resolve against it. @default the working directory */
  readonly baseDir?: string;
}

/** A loaded configuration and where it came from. */
export interface LoadedConfig {
  /** The configuration (empty when no file exists). */
  readonly config: EmbabelConfig;
  /** The file read, or `undefined` when none exists. */
  readonly path: string | undefined;
  /** Things the user should know (parts of the file that are read but not acted on). */
  readonly notes: readonly string[];
}

/** An empty configuration. */
export const EMPTY_CONFIG: EmbabelConfig = Object.freeze({ models: {}, roles: {}, mcpServers: {} });

/**
 * Reads `explicitPath`, or the first of {@link CONFIG_FILE_NAMES} found in
 * `cwd`. No file is fine (empty config); a file that can't be read or doesn't
 * fit the format is a {@link ConfigurationError} naming the file and the field.
 */
export function loadConfig(cwd: string, explicitPath?: string): LoadedConfig {
  const path = explicitPath ? resolve(cwd, explicitPath) : findConfigFile(cwd);
  if (path === undefined) return { config: EMPTY_CONFIG, path: undefined, notes: [] };
  if (!existsSync(path)) throw new ConfigurationError(`Config file not found: ${path}`);
  const raw = readRaw(path);
  const result = configSchema.safeParse(raw ?? {});
  // Every problem of the file in one pass: the schema's, and roles naming models that are not there.
  const problems = result.success ? [] : result.error.issues.map(describeIssue);
  problems.push(...roleProblems(raw));
  if (!result.success || problems.length > 0) {
    throw new ConfigurationError(`Invalid config file ${path}:\n${problems.join("\n")}`);
  }
  const data = result.data;
  const models = Object.fromEntries(
    Object.entries(data.models ?? {}).map(([name, entry]) => [
      name,
      typeof entry === "string" ? { id: entry } : entry,
    ]),
  );
  const roles = { ...(data.roles ?? {}) };
  const mcpServers = data.mcpServers ?? {};
  const toolGroups = data.toolGroups ?? {};
  const skills = (data.skills ?? []).map((dir) => resolve(dirname(path), dir));
  const notes: string[] = [];
  const present = explicitPath ? [] : configFilesIn(cwd);
  if (present.length > 1) {
    const ignored = present.slice(1).map((file) => basename(file));
    notes.push(
      `Using ${basename(path)}; ${ignored.join(" and ")} ${ignored.length === 1 ? "is" : "are"} ignored (remove one).`,
    );
  }
  const searchable = data.searchableAbove === undefined ? {} : { searchableAbove: data.searchableAbove };
  return {
    config: {
      models,
      roles,
      mcpServers,
      toolGroups,
      ...(skills.length > 0 ? { skills } : {}),
      ...searchable,
      baseDir: dirname(path),
    },
    path,
    notes,
  };
}

/** The top-level keys a config file may have. */
const CONFIG_KEYS = Object.keys(configSchema.shape);

/** One line for a schema problem, with a suggestion for a mistyped key. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "(top level)";
  if (issue.code === "unrecognized_keys" && issue.path.length === 0) {
    const hints = issue.keys.map((key) => didYouMean(key, CONFIG_KEYS)).join("");
    return `  ${where}: ${issue.message}.${hints} Known keys: ${CONFIG_KEYS.join(", ")}.`;
  }
  return `  ${where}: ${issue.message}`;
}

/** Roles that name a model which is neither under "models" nor a model id. */
function roleProblems(raw: unknown): string[] {
  if (typeof raw !== "object" || raw === null) return [];
  const { models, roles } = raw as { models?: unknown; roles?: unknown };
  if (typeof roles !== "object" || roles === null) return [];
  const known = typeof models === "object" && models !== null ? Object.keys(models) : [];
  return Object.entries(roles).flatMap(([role, modelName]) =>
    typeof modelName === "string" &&
    modelName.length > 0 &&
    !known.includes(modelName) &&
    !modelName.includes(":")
      ? [
          `  roles.${role}: names model '${modelName}', which is not under "models" (known: [${known.join(", ")}]).${didYouMean(modelName, known)}`,
        ]
      : [],
  );
}

function findConfigFile(cwd: string): string | undefined {
  return configFilesIn(cwd)[0];
}

/** The config files present in `cwd`, in the order of {@link CONFIG_FILE_NAMES} (the first is used). */
function configFilesIn(cwd: string): string[] {
  return CONFIG_FILE_NAMES.map((name) => resolve(cwd, name)).filter((candidate) => existsSync(candidate));
}

/** `line:column` (1-based) of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, Math.min(offset, text.length));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `${line}:${column}`;
}

/** Where a `JSON.parse` error points, as `line:column`, from Node's message. */
function jsonErrorPosition(text: string, message: string): string | undefined {
  const lineAndColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineAndColumn) return `${lineAndColumn[1]}:${lineAndColumn[2]}`;
  const position = /at position (\d+)/.exec(message);
  if (position) return lineColumn(text, Number(position[1]));
  if (/end of JSON input/.test(message)) return lineColumn(text, text.length);
  return undefined;
}

function readRaw(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigurationError(`Cannot read config file ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (path.endsWith(".json")) {
    try {
      return JSON.parse(text);
    } catch (error) {
      const message = (error as Error).message;
      const where = jsonErrorPosition(text, message);
      const reason = message
        .replace(/ in JSON at position \d+.*$/, "")
        .replace(/ \(line \d+ column \d+\)$/, "");
      throw new ConfigurationError(
        `Config file ${path}${where ? `:${where}` : ""} is not valid JSON: ${reason}`,
        { cause: error },
      );
    }
  }
  try {
    return parseYaml(text);
  } catch (error) {
    throw new ConfigurationError(`Config file ${path} is not valid YAML: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** `text` parsed as YAML: the yaml package is loaded only when a YAML config file is read. */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yaml.parse(text);
}
