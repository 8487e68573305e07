import { EXAMPLES } from "../../examples/index.js";
import { didYouMean } from "./did-you-mean.js";
import type { ExampleDefinition } from "./example-definition.js";
import { isModulePath } from "./module-path.js";
import { UsageError } from "./usage-error.js";
import { loadUserModule, pickEntry } from "./user-module.js";

/** The built-in examples, in the order `list` shows them. */
export function builtInExamples(): readonly ExampleDefinition[] {
  return EXAMPLES;
}

/**
 * The example called `name`, or the agent of the module at that path
 * (relative to `cwd`; `agent` chooses one when it has several). Unknown names
 * are a {@link UsageError} listing the examples.
 */
export async function findExample(name: string, cwd: string, agent?: string): Promise<ExampleDefinition> {
  if (isModulePath(name)) return pickEntry(await loadUserModule(name, cwd), name, agent);
  const found = EXAMPLES.find((example) => example.name === name);
  if (found) return found;
  const names = EXAMPLES.map((example) => example.name);
  throw new UsageError(
    `Unknown example '${name}'.${didYouMean(name, names)} Examples: ${names.join(", ")}. Run 'embabel-ts list' to see what they do, or give the path of your own module (./dist/my-agent.js).`,
  );
}

/**
 * The agents a command serves: the module's at `module` (relative to `cwd`),
 * or the built-in examples when none is given, with the name to serve them under.
 */
export async function servedExamples(
  module: string | undefined,
  cwd: string,
): Promise<{ readonly name: string | undefined; readonly examples: readonly ExampleDefinition[] }> {
  if (module === undefined) return { name: undefined, examples: EXAMPLES };
  const loaded = await loadUserModule(module, cwd);
  return { name: loaded.name, examples: loaded.examples };
}
