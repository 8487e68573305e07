import { ConfigurationError } from "../errors/configuration-error.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import { TOOL_METHOD_NAME } from "../tool/instance-tools.js";
import { Tool } from "../tool/tool.js";

/** Turns a tool's name into the name the LLM sees. */
export type ToolNamingStrategy = (name: string) => string;

/** Keeps a tool when it returns true for its method's name (a tool given as the object: its name). */
export type ToolNameFilter = (methodName: string) => boolean;

/** The name of the method behind `tool`, or the tool's name when it is not a method. */
function methodNameOf(tool: Tool): string {
  return (
    DelegatingTool.unwrap(tool, (candidate): candidate is MethodNamed => TOOL_METHOD_NAME in candidate)?.[
      TOOL_METHOD_NAME
    ] ?? tool.definition.name
  );
}

/** A tool made from an `@llmTool` method (`MethodTool`, of any copy of the package). */
type MethodNamed = Tool & { readonly [TOOL_METHOD_NAME]: string };

const identity: ToolNamingStrategy = (name) => name;
const everything: ToolNameFilter = () => true;

function toolsOf(object: object): readonly Tool[] {
  // A Tool is used as it is; otherwise its @llmTool methods (an @unfoldingTools
  // class becomes one facade); objects without tools give [].
  return Tool.isTool(object) ? [object] : Tool.safelyFromInstance(object);
}

/**
 * An object whose `@llmTool` methods become tools, with an optional naming
 * strategy and name filter: `new ToolObject(calculator).withPrefix("calc_")`.
 * A `Tool` given as the object is used as it is; an object without tool
 * methods contributes nothing.
 */
export class ToolObject {
  /** Wraps `object`; iterables are refused (pass each object, or use `withTools` for a list of tools). */
  constructor(
    readonly object: object,
    readonly namingStrategy: ToolNamingStrategy = identity,
    readonly filter: ToolNameFilter = everything,
  ) {
    if (typeof (object as Partial<Iterable<unknown>>)[Symbol.iterator] === "function") {
      throw new ConfigurationError(
        `ToolObject cannot be an Iterable: pass each object separately, or use withTools(list) for tools. Offending object: ${String(object)}`,
      );
    }
  }

  /** A tool object for `object`; a `ToolObject` is returned as it is. */
  static of(object: object | ToolObject): ToolObject {
    return object instanceof ToolObject ? object : new ToolObject(object);
  }

  /** A copy naming each tool `strategy(name)`. */
  withNamingStrategy(strategy: ToolNamingStrategy): ToolObject {
    return new ToolObject(this.object, strategy, this.filter);
  }

  /** A copy naming each tool `prefix + name`. */
  withPrefix(prefix: string): ToolObject {
    return this.withNamingStrategy((name) => `${prefix}${name}`);
  }

  /**
   * A copy keeping only tools whose method name passes `filter`, as in the
   * chapter's `withFilter(methodName -> methodName.startsWith("compute"))`
   * (the method's name, even under `@llmTool({ name })`; a tool that is not
   * a method is filtered by its name).
   */
  withFilter(filter: ToolNameFilter): ToolObject {
    return new ToolObject(this.object, this.namingStrategy, filter);
  }

  /** The object's tools, filtered and renamed. */
  tools(): readonly Tool[] {
    return toolsOf(this.object)
      .filter((tool) => this.filter(methodNameOf(tool)))
      .map((tool) => {
        const name = this.namingStrategy(tool.definition.name);
        return name === tool.definition.name ? tool : tool.withName(name);
      });
  }
}
