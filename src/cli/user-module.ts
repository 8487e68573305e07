import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { codePath } from "../package-root.js";
import { Agent, type AgentLike } from "../platform/agent.js";
import { installAgentClassReader } from "../platform/agent-decorators.js";
import { installToolMethodReader } from "../tool/method-tools.js";
import { didYouMean } from "./did-you-mean.js";
import type { ExampleDefinition } from "./example-definition.js";
import { inputFromText } from "./input-from-text.js";
import { UsageError } from "./usage-error.js";

/** A user's module as every command sees it: its name and one runnable entry per agent. */
export interface UserModule {
  /** The module's absolute path. */
  readonly path: string;
  /** The nearest package.json's `name`, else the file name without its extension. */
  readonly name: string;
  /**
   * One entry per agent: the module's `example` / `examples` as written, and
   * one made for each other agent it exports (named after the agent, with no
   * recorded script).
   */
  readonly examples: readonly ExampleDefinition[];
}

/** The shape a module needs, shown with every error about one. */
export const MODULE_SHAPE = [
  "A module for embabel-ts exports its agents, e.g.",
  "  export const agents = [MyAgent];   // @agent classes, their instances, or defineAgent(...) agents",
  "(or exports each agent by name). For --scripted runs it also exports",
  "  export const example = { name, agents: [MyAgent], script: () => [...recorded replies] };",
  "with optional summary, sampleInput, input(text) and formatResult(result). See docs/cli.md.",
].join("\n");

/** Entries made here for an agent without an `example`: `--scripted` has nothing to replay for them. */
const unscripted = new WeakSet<ExampleDefinition>();

/** True when `example` has a recorded script for `--scripted` (every built-in example and every `example` export has one). */
export function hasRecordedScript(example: ExampleDefinition): boolean {
  return !unscripted.has(example);
}

/**
 * Loads the module at `given` (relative to `cwd`): its agents as runnable
 * entries. A missing file, a module that does not load, and exports of the
 * wrong shape are {@link UsageError}s naming the path as given and each bad
 * field, with the expected shape.
 */
export async function loadUserModule(given: string, cwd: string): Promise<UserModule> {
  const path = resolve(cwd, given);
  if (!existsSync(path)) {
    throw new UsageError(`Cannot find the module '${given}' (looked for ${path}).`);
  }
  // The module's `embabel-ts` may be another copy, one that leaves no readers on the classes it decorates.
  installAgentClassReader();
  installToolMethodReader();
  const module = await importModule(path, given, cwd);
  const examples = entriesOf(module, given);
  return { path, name: moduleName(path), examples };
}

async function importModule(path: string, given: string, cwd: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    // Node does not run TypeScript: with tsx installed where the user works, it loads the module as is.
    const tsx = isUnknownTypeScript(error, path) ? await tsxImport(cwd) : undefined;
    if (tsx) {
      try {
        return (await tsx(pathToFileURL(path).href)) as Record<string, unknown>;
      } catch (tsxError) {
        throw new UsageError(`Cannot load ${given} with tsx: ${(tsxError as Error).message}`);
      }
    }
    throw new UsageError(
      `Cannot load ${given}: ${(error as Error).message}${loadHint(error, path, given, cwd)}`,
    );
  }
}

function isUnknownTypeScript(error: unknown, path: string): boolean {
  return (error as { code?: unknown }).code === "ERR_UNKNOWN_FILE_EXTENSION" && /\.(c|m)?ts$/.test(path);
}

/** `tsx`'s import function (its ES module API) when tsx is installed where the user works. */
async function tsxImport(cwd: string): Promise<((url: string) => Promise<unknown>) | undefined> {
  try {
    const manifest = createRequire(join(cwd, "package.json")).resolve("tsx/package.json");
    const api = (await import(pathToFileURL(join(dirname(manifest), "dist/esm/api/index.mjs")).href)) as {
      tsImport?: (url: string, parent: string) => Promise<unknown>;
    };
    const { tsImport } = api;
    if (typeof tsImport !== "function") return undefined;
    return (url) => tsImport(url, pathToFileURL(join(cwd, "package.json")).href);
  } catch {
    return undefined;
  }
}

/** What to change when a module fails to load for a reason we can recognise: TypeScript, or decorators left in. */
function loadHint(error: unknown, path: string, given: string, cwd: string): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ERR_UNKNOWN_FILE_EXTENSION" && /\.(c|m)?ts$/.test(path)) {
    const main = relative(cwd, codePath("src/cli/main.js"));
    return (
      `\nNode runs JavaScript: compile ${given} (tsc with "target": "ES2022") and pass the .js file, ` +
      `install tsx (npm i -D tsx) so .ts modules load as they are, or run the command under tsx: npx tsx ${main} run ${given}`
    );
  }
  if (error instanceof SyntaxError && hasDecoratorSyntax(path)) {
    return (
      "\nThe module still contains decorators (@llmTool, @agent, ...), which Node cannot run: " +
      'compile it with "target": "ES2022" (not "esnext", which tsc --init writes), or run it with tsx. ' +
      "See docs/using-in-your-project.md."
    );
  }
  return "";
}

function hasDecoratorSyntax(path: string): boolean {
  try {
    return /^\s*@[A-Za-z_$][\w$]*\s*\(/m.test(readFileSync(path, "utf8"));
  } catch {
    return false;
  }
}

/** The nearest package.json's name above `path`, else the file's name without its extension. */
export function moduleName(path: string): string {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
        if (typeof name === "string" && name.trim()) return name.trim();
      } catch {
        // an unreadable package.json names nothing: use the file's name
      }
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return basename(path, extname(path));
}

function isAgentLike(value: unknown): value is AgentLike {
  return Agent.isAgent(value) || Agent.isAgentClass(value) || Agent.isAgentInstance(value);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return `function ${value.name || "(anonymous)"} (not an @agent class)`;
  if (typeof value === "object") return "an object that is not an agent";
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** The module's entries; every problem with its exports at once, as one {@link UsageError}. */
function entriesOf(module: Record<string, unknown>, given: string): ExampleDefinition[] {
  const problems: string[] = [];
  const declared: ExampleDefinition[] = [];
  const exampleExport = module.example ?? (looksLikeExample(module.default) ? module.default : undefined);
  if (exampleExport !== undefined) {
    const checked = checkExample(
      exampleExport,
      module.example === undefined ? "default" : "example",
      problems,
    );
    if (checked) declared.push(checked);
  }
  if (module.examples !== undefined) {
    if (!Array.isArray(module.examples))
      problems.push(`'examples' must be an array of examples, got ${describeValue(module.examples)}.`);
    else
      module.examples.forEach((candidate, index) => {
        const checked = checkExample(candidate, `examples[${index}]`, problems);
        if (checked) declared.push(checked);
      });
  }
  let agents: unknown[];
  if (module.agents !== undefined) {
    if (!Array.isArray(module.agents)) {
      problems.push(`'agents' must be an array of agents, got ${describeValue(module.agents)}.`);
      agents = [];
    } else {
      agents = module.agents.filter((candidate, index) => {
        if (isAgentLike(candidate)) return true;
        problems.push(
          `agents[${index}] must be an agent (an @agent class, an instance of one, or defineAgent(...)), got ${describeValue(candidate)}.`,
        );
        return false;
      });
    }
  } else if (declared.length === 0 && problems.length === 0) {
    agents = Object.values(module).filter(isAgentLike);
    if (Agent.isAgent(module.default) || Agent.isAgentClass(module.default)) agents.unshift(module.default);
  } else agents = [];
  if (problems.length > 0) {
    throw new UsageError(
      `${given} does not fit:\n${problems.map((problem) => `  ${problem}`).join("\n")}\n${MODULE_SHAPE}`,
    );
  }
  const entries = [...declared];
  const covered = new Set(declared.flatMap((example) => example.agents.map((agent) => agentNameOf(agent))));
  for (const agent of agents) {
    const name = agentNameOf(agent);
    if (covered.has(name)) continue;
    covered.add(name);
    entries.push(plainEntry(agent, given));
  }
  if (entries.length === 0) {
    const names = Object.keys(module);
    throw new UsageError(
      `${given} exports no agent (its exports: ${names.length > 0 ? names.join(", ") : "none"}).\n${MODULE_SHAPE}`,
    );
  }
  return entries;
}

function looksLikeExample(value: unknown): boolean {
  return typeof value === "object" && value !== null && "agents" in value;
}

const agentNames = new WeakMap<object, string>();

/** The name an agent-like value deploys under. */
function agentNameOf(agent: unknown): string {
  if (typeof agent !== "object" && typeof agent !== "function") return String(agent);
  const key = agent as object;
  let name = agentNames.get(key);
  if (name === undefined) {
    name = Agent.of(agent as AgentLike).name;
    agentNames.set(key, name);
  }
  return name;
}

/** `example` checked field by field: every bad field goes to `problems`; the example with defaults filled in when all are good. */
function checkExample(value: unknown, where: string, problems: string[]): ExampleDefinition | undefined {
  if (typeof value !== "object" || value === null) {
    problems.push(`'${where}' must be an object { name, agents, script, ... }, got ${describeValue(value)}.`);
    return undefined;
  }
  const example = value as Record<string, unknown>;
  const before = problems.length;
  const field = (name: string, expected: string) =>
    `'${where}.${name}' must be ${expected}, got ${describeValue(example[name])}`;
  if (typeof example.name !== "string" || example.name.trim() === "")
    problems.push(`${field("name", "a non-empty string (the name typed on the command line)")}.`);
  if (!Array.isArray(example.agents) || example.agents.length === 0) {
    problems.push(`${field("agents", "a non-empty array of agents")}.`);
  } else {
    example.agents.forEach((agent, index) => {
      if (!isAgentLike(agent))
        problems.push(
          `'${where}.agents[${index}]' must be an agent (an @agent class, an instance of one, or defineAgent(...)), got ${describeValue(agent)}.`,
        );
    });
  }
  if (typeof example.script !== "function") {
    const hint = Array.isArray(example.script)
      ? " (wrap the array: script: () => [...], so each run replays it from the start)"
      : "";
    problems.push(`${field("script", "a function returning the recorded replies")}${hint}.`);
  }
  for (const optional of ["summary", "sampleInput", "recordedWith", "configFile"] as const) {
    if (example[optional] !== undefined && typeof example[optional] !== "string")
      problems.push(`${field(optional, "a string")}.`);
  }
  for (const optional of ["input", "formatResult"] as const) {
    if (example[optional] !== undefined && typeof example[optional] !== "function")
      problems.push(`${field(optional, "a function")}.`);
  }
  if (problems.length > before) return undefined;
  const first = (example.agents as unknown[])[0];
  return {
    ...(example as unknown as ExampleDefinition),
    summary: (example.summary as string | undefined) ?? Agent.of(first as AgentLike).description,
    sampleInput: (example.sampleInput as string | undefined) ?? "",
    ...(typeof example.input === "function"
      ? {}
      : { input: (text: string) => inputFromText(first as AgentLike, text) }),
  };
}

/** The entry of an agent exported without an `example`: no recorded script. */
function plainEntry(agent: unknown, given: string): ExampleDefinition {
  const resolved = Agent.of(agent as AgentLike);
  const entry: ExampleDefinition = {
    name: resolved.name,
    summary: resolved.description,
    sampleInput: "",
    agents: [agent],
    input: (text) => inputFromText(agent as AgentLike, text),
    script: () => {
      throw new UsageError(
        `--scripted replays an example's recorded replies, and ${given} exports agent '${resolved.name}' without one: run it on a model (without --scripted), or add\n  export const example = { name: "${resolved.name}", agents: [${resolved.name}], script: () => [...recorded replies] };`,
      );
    },
  };
  unscripted.add(entry);
  return entry;
}

/**
 * The entry of `module` to run: the only one, or the one named `agent` (an
 * entry or agent name). Several without `agent` is a {@link UsageError} listing them.
 */
export function pickEntry(module: UserModule, given: string, agent: string | undefined): ExampleDefinition {
  const { examples } = module;
  const names = examples.map((example) => example.name);
  if (agent === undefined) {
    if (examples.length === 1) return examples[0] as ExampleDefinition;
    throw new UsageError(
      `${given} has ${examples.length} agents (${names.join(", ")}): choose one with --agent <name>.`,
    );
  }
  const found = examples.find(
    (example) =>
      example.name === agent || example.agents.some((candidate) => agentNameOf(candidate) === agent),
  );
  if (found) return found;
  throw new UsageError(
    `${given} has no agent '${agent}' (it has ${names.join(", ")}).${didYouMean(agent, names)}`,
  );
}
