import { DelegatingTool } from "./abstract-tool.js";
import { Logger } from "./logger.js";
import type { Tool } from "./tool-interface.js";
import { isNestedTool } from "./unfolding.js";

/**
 * The definition-metadata key of a tool that gives way when its name is
 * taken: its value is a {@link NameOnClash}. MCP tools carry it (an MCP server
 * names its tools itself, so it must never be able to break an interaction by
 * choosing a name another tool already has); the application's own tools don't.
 */
export const NAME_ON_CLASH_KEY = "nameOnClash";

/** What a tool that gives way on a name clash is offered as instead, and where it comes from. */
export interface NameOnClash {
  /** The other name, valid for providers (`<server>_<tool>`). */
  readonly name: string;
  /** Who named the tool, for the warning (`MCP server 'github'`). */
  readonly origin: string;
}

/** The tool's {@link NameOnClash}, when it gives way on a clash. */
export function nameOnClashOf(tool: Tool): NameOnClash | undefined {
  const value = tool.definition.metadata[NAME_ON_CLASH_KEY] as Partial<NameOnClash> | undefined;
  return typeof value?.name === "string" && typeof value.origin === "string"
    ? (value as NameOnClash)
    : undefined;
}

/** Renamed copies already made (and warned about), per tool and name. */
const renamedCopies = new WeakMap<Tool, Map<string, Tool>>();

/** True when `a` and `b` are one tool, possibly decorated. */
export function isSameTool(a: Tool, b: Tool): boolean {
  return (
    a === b ||
    DelegatingTool.unwrap(a, (candidate): candidate is Tool => candidate === b) !== undefined ||
    DelegatingTool.unwrap(b, (candidate): candidate is Tool => candidate === a) !== undefined
  );
}

/**
 * `tool` (which gives way on clashes) under its {@link NameOnClash} name, or
 * that name with `_2`, `_3`… when `taken` says it is taken too. The copy is
 * made once per tool and name, and its first making is reported once as a
 * warning naming the clash. `undefined` when `tool` does not give way.
 */
export function renameOnClash(tool: Tool, taken: (name: string) => boolean): Tool | undefined {
  const onClash = nameOnClashOf(tool);
  if (onClash === undefined) return undefined;
  const base = onClash.name;
  const available = (name: string): boolean => name !== tool.definition.name && !taken(name);
  let name = base;
  for (let index = 2; !available(name); index++) name = `${base.slice(0, 60)}_${index}`;
  let copies = renamedCopies.get(tool);
  const existing = copies?.get(name);
  if (existing !== undefined) return existing;
  const copy = tool.withName(name);
  if (copies === undefined) {
    copies = new Map();
    renamedCopies.set(tool, copies);
  }
  copies.set(name, copy);
  Logger.current().warn(
    `Tool name clash: another tool is already named '${tool.definition.name}', so the tool of ${onClash.origin} is offered as '${name}'.`,
    { tool: tool.definition.name, offeredAs: name, origin: onClash.origin },
  );
  return copy;
}

/** Every name `tool` can ever offer: its own, and those of its inner tools (facades, playbooks), at any depth. */
function offeredNames(tool: Tool, into: Map<string, Tool>, depth = 0): void {
  if (!into.has(tool.definition.name)) into.set(tool.definition.name, tool);
  if (depth > 16) return;
  const nested = DelegatingTool.unwrap(tool, isNestedTool);
  for (const inner of nested?.innerTools ?? []) offeredNames(inner, into, depth + 1);
}

/**
 * `tools` with every name clash that a tool giving way (an MCP tool) is part
 * of resolved: such a tool whose name another tool also has (at the top, or
 * inside a facade that may unfold) is replaced by its renamed copy
 * ({@link renameOnClash}); the other tools keep their names. Two tools that
 * both give way are both renamed, so neither wins by its position. Clashes
 * between tools that don't give way are left for the caller to report.
 * Returns `tools` itself when nothing changed.
 */
export function resolveNameClashes(tools: readonly Tool[]): readonly Tool[] {
  let givesWay = false;
  for (const tool of tools) {
    if (nameOnClashOf(tool) !== undefined) {
      givesWay = true;
      break;
    }
  }
  if (!givesWay) return tools;
  // The names of the tools that keep theirs, inner ones included; and who else offers each name.
  const kept = new Map<string, Tool>();
  const byName = new Map<string, Tool[]>();
  for (const tool of tools) {
    const owners = byName.get(tool.definition.name);
    if (owners === undefined) byName.set(tool.definition.name, [tool]);
    else if (!owners.some((owner) => isSameTool(owner, tool))) owners.push(tool);
    if (nameOnClashOf(tool) === undefined) offeredNames(tool, kept);
    else {
      const nested = DelegatingTool.unwrap(tool, isNestedTool);
      for (const inner of nested?.innerTools ?? []) offeredNames(inner, kept);
    }
  }
  const clashes = (tool: Tool): boolean => {
    const name = tool.definition.name;
    const keeper = kept.get(name);
    if (keeper !== undefined && !isSameTool(keeper, tool)) return true;
    return (byName.get(name)?.length ?? 0) > 1;
  };
  const taken = new Set<string>([...kept.keys(), ...byName.keys()]);
  const renamedHere = new Map<Tool, Tool>();
  const resolved = tools.map((tool) => {
    if (nameOnClashOf(tool) === undefined || !clashes(tool)) return tool;
    let renamed = renamedHere.get(tool);
    if (renamed === undefined) {
      renamed = renameOnClash(tool, (name) => taken.has(name)) ?? tool;
      taken.add(renamed.definition.name);
      renamedHere.set(tool, renamed);
    }
    return renamed;
  });
  return renamedHere.size > 0 ? resolved : tools;
}
