import { ToolCallContext } from "../tool/tool-call-context.js";

/**
 * Turns the call's {@link ToolCallContext} into the MCP request's `_meta`
 * when a tool call crosses into an MCP server. The framework's own keys (the
 * loop id, anything under `embabel.`), `progressToken` and keys in MCP's
 * reserved namespaces (`io.modelcontextprotocol/…`) never leave the process,
 * whatever the converter returns. An empty context sends no `_meta`; any
 * other sends the converter's map, `{}` included (as the reference does).
 */
export type ToolCallContextMcpMetaConverter = (context: ToolCallContext) => Readonly<Record<string, unknown>>;

const FRAMEWORK_PREFIX = "embabel.";
const PROGRESS_TOKEN = "progressToken";

/**
 * Whether `key` is in a namespace MCP reserves: a prefix (dot-separated
 * labels before `/`) whose second label is `modelcontextprotocol` or `mcp`,
 * e.g. `io.modelcontextprotocol/related-task`, which the SDK uses for tasks.
 */
function isReservedMetaKey(key: string): boolean {
  const slash = key.indexOf("/");
  if (slash < 0) return false;
  const second = key.slice(0, slash).split(".")[1];
  return second === "modelcontextprotocol" || second === "mcp";
}

/** Whether `key` may be sent to a server (not one of the framework's own, not the SDK's progress token, not MCP-reserved). */
export function isForwardableMetaKey(key: string): boolean {
  return (
    !key.startsWith(FRAMEWORK_PREFIX) &&
    key !== ToolCallContext.LOOP_ID_KEY &&
    key !== PROGRESS_TOKEN &&
    !isReservedMetaKey(key)
  );
}

function entriesWhere(context: ToolCallContext, keep: (key: string) => boolean): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  for (const [key, value] of context.entries()) {
    if (keep(key) && isForwardableMetaKey(key)) meta[key] = value;
  }
  return meta;
}

/**
 * The `_meta` sent for `context`: `undefined` for an empty context (no
 * `_meta` is sent); otherwise `converter`'s map without the framework's keys,
 * **even when nothing is left** (`{}`), as the reference sends it.
 */
export function mcpMetaOf(
  context: ToolCallContext,
  converter: ToolCallContextMcpMetaConverter,
): Record<string, unknown> | undefined {
  if (context.isEmpty) return undefined;
  const meta: Record<string, unknown> = {};
  // The default, in one pass: the forwardable entries.
  const entries = converter === PASS_THROUGH ? context.entries() : Object.entries(converter(context));
  for (const [key, value] of entries) {
    if (isForwardableMetaKey(key)) meta[key] = value;
  }
  return meta;
}

/** The converters made here: pure functions of the (immutable) context, so their `_meta` may be reused. */
const pureConverters = new WeakSet<ToolCallContextMcpMetaConverter>();

function pure(converter: ToolCallContextMcpMetaConverter): ToolCallContextMcpMetaConverter {
  pureConverters.add(converter);
  return converter;
}

/** Whether `converter` is one of the factories' (a user's function may read other state, so is called every time). */
export function isPureMetaConverter(converter: ToolCallContextMcpMetaConverter): boolean {
  return pureConverters.has(converter);
}

const PASS_THROUGH: ToolCallContextMcpMetaConverter = /* @__PURE__ */ pure((context) =>
  entriesWhere(context, () => true),
);

/** The converter factories of the specification. */
export const ToolCallContextMcpMetaConverter = {
  /** Every entry (the default). */
  passThrough(): ToolCallContextMcpMetaConverter {
    return PASS_THROUGH;
  },
  /** Nothing: no `_meta` is ever sent. */
  noOp(): ToolCallContextMcpMetaConverter {
    return pure(() => ({}));
  },
  /** Only the entries under `keys`. */
  allowKeys(...keys: string[]): ToolCallContextMcpMetaConverter {
    const allowed = new Set(keys);
    return pure((context) => entriesWhere(context, (key) => allowed.has(key)));
  },
  /** Every entry except those under `keys`. */
  denyKeys(...keys: string[]): ToolCallContextMcpMetaConverter {
    const denied = new Set(keys);
    return pure((context) => entriesWhere(context, (key) => !denied.has(key)));
  },
};

/**
 * A server's `context` rule from config (`mcpServers.<name>.context`): the
 * keys it may receive, or the keys it must not.
 */
export type McpContextForwarding =
  | { readonly allow: readonly string[] }
  | { readonly deny: readonly string[] };

/**
 * `converter` narrowed by a server's `context` rule: whatever the converter
 * returns, only allowed keys (or all but denied ones) reach that server.
 * @internal
 */
export function narrowedMetaConverter(
  converter: ToolCallContextMcpMetaConverter,
  rule: McpContextForwarding,
): ToolCallContextMcpMetaConverter {
  const keys = new Set("allow" in rule ? rule.allow : rule.deny);
  const keep = "allow" in rule ? (key: string) => keys.has(key) : (key: string) => !keys.has(key);
  const narrowed: ToolCallContextMcpMetaConverter = (context) => {
    const meta: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(converter(context))) {
      if (keep(key)) meta[key] = value;
    }
    return meta;
  };
  return isPureMetaConverter(converter) ? pure(narrowed) : narrowed;
}
