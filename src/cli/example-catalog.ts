import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { EXAMPLES } from "../../examples/index.js";
import { codePath } from "../package-root.js";
import type { ExampleDefinition } from "./example-definition.js";
import { UsageError } from "./usage-error.js";

/** The built-in examples, in the order `list` shows them. */
export function builtInExamples(): readonly ExampleDefinition[] {
  return EXAMPLES;
}

/** True when `name` looks like a module path rather than an example name. */
function isModulePath(name: string): boolean {
  return name.includes("/") || name.includes("\\") || /\.(c|m)?(js|ts)$/.test(name);
}

/**
 * The example called `name`, or the `example` export of the module at that
 * path (relative to `cwd`). Unknown names are a {@link UsageError} listing the
 * examples.
 */
export async function findExample(name: string, cwd: string): Promise<ExampleDefinition> {
  if (isModulePath(name)) return loadExampleModule(resolve(cwd, name), name, cwd);
  const found = EXAMPLES.find((example) => example.name === name);
  if (found) return found;
  const names = EXAMPLES.map((example) => example.name).join(", ");
  throw new UsageError(
    `Unknown example '${name}'. Examples: ${names}. Run 'embabel-ts list' to see what they do.`,
  );
}

async function loadExampleModule(path: string, name: string, cwd: string): Promise<ExampleDefinition> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(
      `Cannot load ${path}: ${(error as Error).message}${loadHint(error, path, name, cwd)}`,
    );
  }
  const candidate = module.example ?? module.default;
  if (!isExampleDefinition(candidate)) {
    throw new UsageError(
      `${path} must export 'example': { name, summary, sampleInput, agents, input(text), script() }.`,
    );
  }
  return candidate;
}

/** What to change when a module fails to load for a reason we can recognise: TypeScript, or decorators left in. */
function loadHint(error: unknown, path: string, name: string, cwd: string): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ERR_UNKNOWN_FILE_EXTENSION" && /\.(c|m)?ts$/.test(path)) {
    const main = relative(cwd, codePath("src/cli/main.js"));
    return (
      `\nNode runs JavaScript: compile ${name} (tsc with "target": "ES2022") and pass the .js file, ` +
      `or run the command under tsx: npx tsx ${main} run ${name}`
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

function isExampleDefinition(value: unknown): value is ExampleDefinition {
  if (typeof value !== "object" || value === null) return false;
  const example = value as Partial<ExampleDefinition>;
  return (
    typeof example.name === "string" &&
    Array.isArray(example.agents) &&
    example.agents.length > 0 &&
    typeof example.input === "function" &&
    typeof example.script === "function"
  );
}
