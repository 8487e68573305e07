import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { EXAMPLES } from "../../examples/index.js";
import type { ExampleDefinition } from "./example-definition.js";
import { UsageError } from "./usage-error.js";

/** The built-in examples, in the order `list` shows them. */
export function builtInExamples(): readonly ExampleDefinition[] {
  return EXAMPLES;
}

/** True when `name` looks like a module path rather than an example name. */
function isModulePath(name: string): boolean {
  return name.includes("/") || name.includes("\\") || /\.(c|m)?js$/.test(name);
}

/**
 * The example called `name`, or the `example` export of the module at that
 * path (relative to `cwd`). Unknown names are a {@link UsageError} listing the
 * examples.
 */
export async function findExample(name: string, cwd: string): Promise<ExampleDefinition> {
  if (isModulePath(name)) return loadExampleModule(resolve(cwd, name));
  const found = EXAMPLES.find((example) => example.name === name);
  if (found) return found;
  const names = EXAMPLES.map((example) => example.name).join(", ");
  throw new UsageError(
    `Unknown example '${name}'. Examples: ${names}. Run 'embabel-ts list' to see what they do.`,
  );
}

async function loadExampleModule(path: string): Promise<ExampleDefinition> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`Cannot load ${path}: ${(error as Error).message}`);
  }
  const candidate = module.example ?? module.default;
  if (!isExampleDefinition(candidate)) {
    throw new UsageError(
      `${path} must export 'example': { name, summary, sampleInput, agents, input(text), script() }.`,
    );
  }
  return candidate;
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
