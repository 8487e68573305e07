import type { ReadResourceResult, Server } from "@modelcontextprotocol/server";
import { ResourceNotFoundError } from "@modelcontextprotocol/server";
import { ConfigurationError } from "../../errors/configuration-error.js";

/** Completes one argument: the values that start with (or otherwise fit) what was typed. */
export type McpCompleter = (
  value: string,
  context: Readonly<Record<string, string>>,
) => readonly string[] | Promise<readonly string[]>;

/** A resource served by {@link createMcpServer}: fixed (`uri`) or a template (`uri` with `{name}` variables). */
export interface McpServerResource {
  /** The URI (`docs://readme`), or a template whose `{name}` parts each match one path segment (`orders://{id}/summary`). */
  readonly uri: string;
  /** A short name clients show. */
  readonly name: string;
  /** What it holds. @default none */
  readonly description?: string;
  /** Its MIME type. @default "text/plain" for text, "application/octet-stream" for bytes */
  readonly mimeType?: string;
  /** Reads it: text, or bytes (sent base64). For a template, `variables` holds the matched parts. */
  read(
    uri: string,
    variables: Readonly<Record<string, string>>,
    options: { readonly signal: AbortSignal },
  ): string | Uint8Array | Promise<string | Uint8Array>;
  /** Completers for a template's variables (`completion/complete`). @default none */
  readonly complete?: Readonly<Record<string, McpCompleter>>;
}

/** The MCP error code for a resource that does not exist. */
/**
 * An unknown resource: Invalid Params (-32602) with the URI, on both
 * revisions (SEP-2164; the SDK sends -32002, the older code, as -32602 too).
 */
function notFound(uri: string): ResourceNotFoundError {
  return new ResourceNotFoundError(uri);
}

interface Matcher {
  readonly resource: McpServerResource;
  readonly pattern: RegExp | undefined;
  readonly variables: readonly string[];
}

function matcherOf(resource: McpServerResource): Matcher {
  const variables = [...resource.uri.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  if (variables.length === 0) return { resource, pattern: undefined, variables };
  const source = resource.uri
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("([^/]+)");
  return { resource, pattern: new RegExp(`^${source}$`), variables };
}

/** `uri`'s resource and variables among `matchers`, if any. */
function find(
  matchers: readonly Matcher[],
  uri: string,
): { matcher: Matcher; variables: Record<string, string> } | undefined {
  for (const matcher of matchers) {
    if (!matcher.pattern) {
      if (matcher.resource.uri === uri) return { matcher, variables: {} };
      continue;
    }
    const match = matcher.pattern.exec(uri);
    if (!match) continue;
    const variables: Record<string, string> = {};
    matcher.variables.forEach((name, index) => {
      variables[name] = decodeURIComponent(match[index + 1] as string);
    });
    return { matcher, variables };
  }
  return undefined;
}

/**
 * Installs `resources/list`, `resources/templates/list`, `resources/read` and
 * (un)subscribe on `server`; returns the completer of a template variable.
 */
export function serveResources(
  server: Server,
  resources: readonly McpServerResource[],
): (uri: string, variable: string) => McpCompleter | undefined {
  const seen = new Set<string>();
  for (const resource of resources) {
    if (seen.has(resource.uri))
      throw new ConfigurationError(`createMcpServer: two resources have the URI '${resource.uri}'.`);
    seen.add(resource.uri);
  }
  const matchers = resources.map(matcherOf);
  const describe = (resource: McpServerResource) => ({
    name: resource.name,
    ...(resource.description === undefined ? {} : { description: resource.description }),
    ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
  });
  server.setRequestHandler("resources/list", () => ({
    resources: matchers
      .filter((matcher) => !matcher.pattern)
      .map((matcher) => ({ uri: matcher.resource.uri, ...describe(matcher.resource) })),
  }));
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: matchers
      .filter((matcher) => matcher.pattern)
      .map((matcher) => ({ uriTemplate: matcher.resource.uri, ...describe(matcher.resource) })),
  }));
  server.setRequestHandler("resources/read", async (request, ctx): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const found = find(matchers, uri);
    if (!found) throw notFound(uri);
    const { resource } = found.matcher;
    const content = await resource.read(uri, found.variables, { signal: ctx.mcpReq.signal });
    if (typeof content === "string") {
      return { contents: [{ uri, mimeType: resource.mimeType ?? "text/plain", text: content }] };
    }
    const blob = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString("base64");
    return { contents: [{ uri, mimeType: resource.mimeType ?? "application/octet-stream", blob }] };
  });
  // Subscriptions are accepted for resources that exist; updates are sent with `server.sendResourceUpdated`.
  const subscribed = new Set<string>();
  server.setRequestHandler("resources/subscribe", (request) => {
    if (!find(matchers, request.params.uri)) throw notFound(request.params.uri);
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  return (uri, variable) =>
    matchers.find((matcher) => matcher.resource.uri === uri)?.resource.complete?.[variable];
}
