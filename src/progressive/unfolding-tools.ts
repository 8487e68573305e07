import { ConfigurationError } from "../errors/configuration-error.js";
import { registerInstanceToolsFactory } from "../tool/instance-tools.js";
import type { Tool } from "../tool/tool.js";
import { validateToolName } from "../tool/tool-definition.js";
import { UnfoldingTool } from "./unfolding-tool.js";
import { recordUnfoldingTools, type UnfoldingToolsOptions } from "./unfolding-tools-options.js";

/** `Tool.fromInstance` on an `@unfoldingTools` instance: its one facade (none when it has no tools). */
function unfoldingInstanceTools(instance: object): Tool[] | undefined {
  if (!UnfoldingTool.isAnnotated(instance)) return undefined;
  const facade = UnfoldingTool.safelyFromInstance(instance);
  return facade ? [facade] : [];
}

/** Makes `Tool.fromInstance` and `withToolObject` turn `@unfoldingTools` instances into one facade (idempotent). */
export function registerUnfoldingInstanceTools(): void {
  registerInstanceToolsFactory(unfoldingInstanceTools);
}

registerUnfoldingInstanceTools();

/**
 * Marks a class as one unfolding facade (the specification's
 * `@UnfoldingTools`), as a TC39 standard class decorator. Its `@llmTool`
 * methods (grouped by their `category`, if any) and the `@unfoldingTools`
 * classes held as its static members become the facade's inner tools;
 * `UnfoldingTool.fromInstance(obj)` and `Tool.fromInstance(obj)` build it.
 *
 * @example
 * @unfoldingTools({ name: "database_operations", description: "Database operations. Invoke to see specific tools." })
 * class DatabaseTools {
 *   @llmTool({ description: "Execute a SQL query", input: z.object({ sql: z.string() }) })
 *   query({ sql }: { sql: string }) { return run(sql); }
 * }
 */
export function unfoldingTools(options: UnfoldingToolsOptions) {
  validateToolName(options.name);
  if (typeof options.description !== "string" || options.description.trim() === "") {
    throw new ConfigurationError(`@unfoldingTools '${options.name}' needs a non-blank description.`);
  }
  return <C extends abstract new (...args: never) => unknown>(
    value: C,
    context: ClassDecoratorContext<C>,
  ): void => {
    registerUnfoldingInstanceTools();
    const metadata = context.metadata as Record<PropertyKey, unknown> | undefined;
    if (!metadata) {
      throw new ConfigurationError(
        `@unfoldingTools on class ${value.name || "anonymous class"} received no decorator metadata: compile with TypeScript 5.2+ or esbuild 0.21+ (standard decorators), and import embabel-ts before defining the class.`,
      );
    }
    recordUnfoldingTools(metadata, options);
  };
}
