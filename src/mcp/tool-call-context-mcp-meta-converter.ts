import { ToolCallContext } from "../tool/tool-call-context.js";

/**
 * Turns the call's {@link ToolCallContext} into the MCP request's `_meta`
 * when a tool call crosses into an MCP server. The framework's own keys (the
 * loop id, anything under `embabel.`), `progressToken` and keys in MCP's
 * reserved namespaces (`io.modelcontextprotocol/…`) never leave the process,
 * whatever the converter returns; an empty result sends no `_meta`.
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
 * The `_meta` sent for `context`: `converter`'s map without the framework's
 * keys, or `undefined` when nothing is left (so no `_meta` is sent).
 */
export function mcpMetaOf(
  context: ToolCallContext,
  converter: ToolCallContextMcpMetaConverter,
): Record<string, unknown> | undefined {
  if (context.isEmpty) return undefined;
  if (converter === PASS_THROUGH) {
    // The default, in one pass: the forwardable entries.
    let meta: Record<string, unknown> | undefined;
    for (const [key, value] of context.entries()) {
      if (!isForwardableMetaKey(key)) continue;
      meta ??= {};
      meta[key] = value;
    }
    return meta;
  }
  const converted = converter(context);
  let meta: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(converted)) {
    if (!isForwardableMetaKey(key)) continue;
    meta ??= {};
    meta[key] = value;
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

const PASS_THROUGH: ToolCallContextMcpMetaConverter = pure((context) => entriesWhere(context, () => true));

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
