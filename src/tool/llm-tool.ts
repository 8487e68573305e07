import type { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ownMetadataList } from "./decorator-metadata.js";
import { recordToolMethodReader } from "./instance-tools.js";
import { type LlmToolOptions, TOOL_METHODS, type ToolMethodEntry } from "./llm-tool-options.js";
import { describeMethodTools } from "./method-tools.js";
import type { ToolCallContext } from "./tool-call-context.js";
import { validateToolName } from "./tool-definition.js";
import type { ToolCallOptions } from "./tool-interface.js";

/**
 * Marks a method as a tool the LLM can call (the specification's `@LlmTool`),
 * as a TC39 standard decorator. The method receives the parsed, validated
 * `input` object and the call's {@link ToolCallContext}; without an `input`
 * schema it takes no input. It may be sync or async and return a string, a
 * `ToolResult`, any JSON-serializable value (also attached as the artifact),
 * or nothing. Collect the tools with `Tool.fromInstance(obj)`.
 *
 * @example
 * class MathTools {
 *   @llmTool({ description: "Adds two numbers", input: z.object({ a: z.number(), b: z.number() }) })
 *   add({ a, b }: { a: number; b: number }) { return a + b; }
 * }
 */
export function llmTool<S extends z.ZodObject = z.ZodObject<{}>>(options: LlmToolOptions<S>) {
  return <
    This,
    M extends (this: This, input: z.output<S>, context: ToolCallContext, options: ToolCallOptions) => unknown,
  >(
    _method: M,
    context: ClassMethodDecoratorContext<This, M>,
  ): void => {
    if ((context as { kind: string }).kind !== "method") {
      throw new ConfigurationError(
        `@llmTool decorates methods only, not the ${(context as { kind: string }).kind} '${String(context.name)}'.`,
      );
    }
    if (typeof context.name === "symbol" && options.name === undefined) {
      throw new ConfigurationError(
        `@llmTool on the symbol-named method ${String(context.name)} needs an explicit name.`,
      );
    }
    const toolName = options.name ?? String(context.name).replace(/^#/, "");
    try {
      validateToolName(toolName);
    } catch (error) {
      throw new ConfigurationError(
        `@llmTool on method '${String(context.name)}': ${(error as Error).message}`,
      );
    }
    const metadata = context.metadata as Record<PropertyKey, unknown> | undefined;
    if (!metadata) {
      throw new ConfigurationError(
        `@llmTool on method '${String(context.name)}' received no decorator metadata: compile with TypeScript 5.2+ or esbuild 0.21+ (standard decorators), and import embabel-ts before defining the class.`,
      );
    }
    const get = context.access.get as (target: object) => unknown;
    const entry: ToolMethodEntry = {
      methodName: context.name,
      toolName,
      key: context.private ? {} : `${context.static ? "static " : ""}${String(context.name)}`,
      isStatic: context.static,
      get,
      options: options as LlmToolOptions,
    };
    if (context.static) {
      context.addInitializer(function (this: This) {
        entry.owner = this as object;
      });
    }
    ownMetadataList<ToolMethodEntry>(metadata, TOOL_METHODS).push(entry);
    recordToolMethodReader(metadata, describeMethodTools);
  };
}
