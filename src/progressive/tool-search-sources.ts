import type { Tool } from "../tool/tool.js";
import { relatedTerms } from "./action-words.js";
import { searchTerms } from "./search-terms.js";

/**
 * The largest share of a search's results one MCP server may fill, unless
 * the query names the server: 2 of 5, 4 of 10 (rounded up, at least 1). A
 * server with many small tools of common words (tool-search poisoning) then
 * cannot crowd out the others; its further matches come after theirs.
 */
export const DEFAULT_MAX_SERVER_SHARE = 0.4;

/** How many tools must share a name's first word for it to be a namespace. */
const MIN_NAMESPACE_TOOLS = 3;

/**
 * The name of the MCP server a tool comes from (`definition.metadata.mcpServer`,
 * set on every MCP tool), if it has one.
 */
export function serverOf(tool: Tool): string | undefined {
  const server = tool.definition.metadata.mcpServer;
  return typeof server === "string" && server.length > 0 ? server : undefined;
}

/** How many of a `limit`-long result one server may fill at most (`share` of it, rounded up, at least 1). */
export function serverCap(limit: number, share: number): number {
  return Math.max(1, Math.ceil(limit * share));
}

/**
 * The namespaces of a catalogue, from each tool's name stems: the first word
 * of tool names (`slack_post_message`, `gitStatus`) that at least
 * {@link MIN_NAMESPACE_TOOLS} tools share, never occurs later in a name, and
 * is not an action word (`create_issue`, `get_file` name no service).
 */
export function namespacesOf(names: readonly (readonly string[])[]): [Map<string, number>, Int32Array] {
  const later = new Set<string>();
  const counts = new Map<string, number>();
  for (const [first, ...rest] of names) {
    if (first === undefined) continue;
    counts.set(first, (counts.get(first) ?? 0) + 1);
    for (const word of rest) if (word !== first) later.add(word);
  }
  const namespaces = new Map<string, number>();
  for (const [word, count] of counts) {
    if (count >= MIN_NAMESPACE_TOOLS && !later.has(word) && relatedTerms(word).length === 0) {
      namespaces.set(word, namespaces.size);
    }
  }
  const namespaceOf = Int32Array.from(names, ([first]) =>
    first === undefined ? -1 : (namespaces.get(first) ?? -1),
  );
  return [namespaces, namespaceOf];
}

/** A catalogue's MCP servers: ids by the stems of their names, and each tool's server id (or -1). */
export interface CatalogueServers {
  /** Server ids by the stems of the server's name that are no action words (`google`, `map` of `google-maps`; not `search` of `brave-search`). */
  readonly byTerm: ReadonlyMap<string, readonly number[]>;
  /** Each tool's server id, or -1. */
  readonly serverIdOf: Int32Array;
}

/** The servers of a catalogue's tools (see {@link CatalogueServers}). */
export function serversOf(tools: readonly Tool[]): CatalogueServers {
  const ids = new Map<string, number>();
  const byTerm = new Map<string, number[]>();
  const serverIdOf = Int32Array.from(tools, (tool) => {
    const server = serverOf(tool);
    if (server === undefined) return -1;
    let id = ids.get(server);
    if (id === undefined) {
      id = ids.size;
      ids.set(server, id);
      for (const term of new Set(searchTerms(server))) {
        if (relatedTerms(term).length > 0) continue;
        const named = byTerm.get(term);
        if (named) named.push(id);
        else byTerm.set(term, [id]);
      }
    }
    return id;
  });
  return { byTerm, serverIdOf };
}

/**
 * The first `limit` of `ranked` (tool positions, best first) with at most
 * `cap` from any one server not in `exempt`; a server's matches beyond its
 * cap come after all others (so a result is never shorter).
 */
export function capPerServer(
  ranked: readonly number[],
  limit: number,
  cap: number,
  serverIdOf: Int32Array,
  exempt: ReadonlySet<number>,
): number[] {
  const taken = new Map<number, number>();
  const positions: number[] = [];
  const deferred: number[] = [];
  for (const position of ranked) {
    if (positions.length === limit) break;
    const server = serverIdOf[position] as number;
    const count = server < 0 || exempt.has(server) ? -1 : (taken.get(server) ?? 0);
    if (count < cap) {
      if (count >= 0) taken.set(server, count + 1);
      positions.push(position);
    } else deferred.push(position);
  }
  for (const position of deferred) {
    if (positions.length === limit) break;
    positions.push(position);
  }
  return positions;
}

/**
 * The best `limit` of the first `count` positions of `touched` by `scores`
 * (ties: lower position first) with at most `cap` from any one server not
 * in `exempt`, in one pass: a server at its cap in the list enters only by
 * replacing its own worst there. Shorter than `limit` when fewer are within
 * the cap.
 */
export function topCapped(
  scores: Float64Array,
  touched: Uint32Array,
  count: number,
  limit: number,
  cap: number,
  serverIdOf: Int32Array,
  exempt: ReadonlySet<number>,
): number[] {
  const cappedServer = (position: number): number => {
    const server = serverIdOf[position] as number;
    return server >= 0 && !exempt.has(server) ? server : -1;
  };
  const better = (a: number, b: number): boolean => {
    const difference = (scores[a] as number) - (scores[b] as number);
    return difference > 0 || (difference === 0 && a < b);
  };
  const top: number[] = [];
  const taken = new Map<number, number>();
  const insert = (position: number): void => {
    let slot = top.length;
    while (slot > 0 && better(position, top[slot - 1] as number)) slot--;
    top.splice(slot, 0, position);
  };
  for (let index = 0; index < count; index++) {
    const position = touched[index] as number;
    // Most matches rank below a full top: skip them before any server bookkeeping (a server's worst
    // in the top is never below the top's last, so such a match could not replace it either).
    if (top.length === limit && !better(position, top[limit - 1] as number)) continue;
    const server = cappedServer(position);
    if (server >= 0 && (taken.get(server) ?? 0) >= cap) {
      let worst = top.length - 1;
      while (cappedServer(top[worst] as number) !== server) worst--;
      if (!better(position, top[worst] as number)) continue;
      top.splice(worst, 1);
      insert(position);
      continue;
    }
    if (top.length === limit) {
      if (!better(position, top[limit - 1] as number)) continue;
      const out = cappedServer(top.pop() as number);
      if (out >= 0) taken.set(out, (taken.get(out) as number) - 1);
    }
    insert(position);
    if (server >= 0) taken.set(server, (taken.get(server) ?? 0) + 1);
  }
  return top;
}
