import { ConfigurationError } from "../errors/configuration-error.js";
import type { Tool } from "../tool/tool.js";
import { nameOnClashOf, resolveNameClashes } from "../tool/tool-name-clashes.js";
import { LlmReference } from "./llm-reference.js";
import { ToolGroup } from "./tool-group.js";
import {
  resolveToolGroup,
  type ToolGroupRequirement,
  type ToolGroupResolver,
} from "./tool-group-registry.js";
import type { ToolObject } from "./tool-object.js";

/** Where a runner's tools come from, in the order they were added. */
export type ToolSource =
  | { readonly kind: "tool"; readonly tool: Tool }
  | { readonly kind: "object"; readonly object: ToolObject }
  | { readonly kind: "group"; readonly group: ToolGroup | ToolGroupRequirement }
  | { readonly kind: "reference"; readonly reference: LlmReference };

function sameSource(a: ToolSource, b: ToolSource): boolean {
  switch (a.kind) {
    case "tool":
      return b.kind === "tool" && b.tool === a.tool;
    case "object":
      return (
        b.kind === "object" &&
        b.object.object === a.object.object &&
        b.object.namingStrategy === a.object.namingStrategy &&
        b.object.filter === a.object.filter
      );
    case "group":
      if (b.kind !== "group") return false;
      if (ToolGroup.isToolGroup(a.group) || ToolGroup.isToolGroup(b.group)) return a.group === b.group;
      return (
        a.group.role === b.group.role &&
        (a.group.requiredToolNames ?? []).join("\u0000") === (b.group.requiredToolNames ?? []).join("\u0000")
      );
    case "reference":
      return b.kind === "reference" && b.reference === a.reference;
  }
}

/** `sources` with `added` appended, skipping sources already present. */
export function appendSources(
  sources: readonly ToolSource[],
  added: readonly ToolSource[],
): readonly ToolSource[] {
  const result = [...sources];
  for (const source of added) {
    if (!result.some((existing) => sameSource(existing, source))) result.push(source);
  }
  return Object.freeze(result);
}

function describeSource(source: ToolSource): string {
  switch (source.kind) {
    case "tool":
      return "withTool";
    case "object":
      return "a tool object";
    case "group":
      return `tool group '${ToolGroup.isToolGroup(source.group) ? source.group.metadata.role : source.group.role}'`;
    case "reference":
      return `reference '${source.reference.name}'`;
  }
}

async function toolsOf(
  source: ToolSource,
  resolver: ToolGroupResolver,
  signal: AbortSignal | undefined,
): Promise<readonly Tool[]> {
  switch (source.kind) {
    case "group":
      return ToolGroup.isToolGroup(source.group)
        ? source.group.tools({ signal })
        : resolveToolGroup(resolver, source.group, { signal });
    case "reference":
      return LlmReference.prefixedTools(source.reference);
    default:
      return syncToolsOf(source);
  }
}

/**
 * The tools of `sources`, loaded now, in the order added. The same tool seen
 * twice is kept once; two different tools with one name are a
 * {@link ConfigurationError} naming both sources. Synchronous (no promise)
 * when every source is a tool or a tool object: only groups and references load.
 */
export function resolveToolSources(
  sources: readonly ToolSource[],
  resolver: ToolGroupResolver,
  options: { readonly signal?: AbortSignal } = {},
): Tool[] | Promise<Tool[]> {
  if (sources.every((source) => source.kind === "tool" || source.kind === "object")) {
    return distinctTools(
      sources,
      sources.map((source) => syncToolsOf(source)),
    );
  }
  return Promise.all(sources.map((source) => toolsOf(source, resolver, options.signal))).then((loaded) =>
    distinctTools(sources, loaded),
  );
}

/** The tools of a tool or tool-object source. */
function syncToolsOf(source: ToolSource): readonly Tool[] {
  if (source.kind === "tool") return [source.tool];
  if (source.kind === "object") return source.object.tools();
  throw new Error(`A ${source.kind} source loads asynchronously.`);
}

/**
 * `loaded` (the tools of each of `sources`) as one list, each tool once. A
 * name clash between two of the application's tools is a
 * {@link ConfigurationError}; an MCP tool in a clash is renamed instead
 * ({@link resolveNameClashes}).
 */
function distinctTools(sources: readonly ToolSource[], loaded: readonly (readonly Tool[])[]): Tool[] {
  const byName = new Map<string, { tool: Tool; source: ToolSource }>();
  const tools: Tool[] = [];
  loaded.forEach((sourceTools, index) => {
    const source = sources[index] as ToolSource;
    for (const tool of sourceTools) {
      const name = tool.definition.name;
      const seen = byName.get(name);
      if (seen === undefined) {
        byName.set(name, { tool, source });
        tools.push(tool);
      } else if (seen.tool !== tool) {
        if (nameOnClashOf(tool) !== undefined || nameOnClashOf(seen.tool) !== undefined) {
          // The application's tool is the one remembered, so a second one of its own still clashes.
          if (nameOnClashOf(tool) === undefined) byName.set(name, { tool, source });
          tools.push(tool);
          continue;
        }
        throw new ConfigurationError(
          `Two different tools are named '${name}' (from ${describeSource(seen.source)} and ${describeSource(source)}): rename one (ToolObject.withNamingStrategy, Tool.withName) or add only one.`,
        );
      }
    }
  });
  return resolveNameClashes(tools) as Tool[];
}
