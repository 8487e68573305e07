/** Entries accepted wherever a context can be given. */
export type ToolCallContextInit =
  | ToolCallContext
  | Readonly<Record<string, unknown>>
  | ReadonlyMap<string, unknown>;

/**
 * An immutable bag of out-of-band values (auth tokens, tenant ids, correlation
 * ids, the loop id) that flows to every tool call and never appears in any
 * tool's schema. Think of it as HTTP headers for tool calls.
 */
export class ToolCallContext {
  /** The key under which the tool loop stores its loop id. */
  static readonly LOOP_ID_KEY = "embabel.toolLoopId";
  /** The empty context; `of()` with no entries returns this same instance. */
  static readonly EMPTY: ToolCallContext = new ToolCallContext(new Map());

  private constructor(private readonly values: ReadonlyMap<string, unknown>) {}

  /** A context holding `entries`; with none, `ToolCallContext.EMPTY`. */
  static of(entries?: ToolCallContextInit): ToolCallContext {
    if (entries === undefined) return ToolCallContext.EMPTY;
    if (entries instanceof ToolCallContext) return entries;
    const map = entries instanceof Map ? new Map(entries) : new Map(Object.entries(entries));
    return map.size === 0 ? ToolCallContext.EMPTY : new ToolCallContext(map);
  }

  /** The value under `key`, or `undefined`. */
  get<T = unknown>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  /** The value under `key`, or `fallback` when absent. */
  getOrDefault<T>(key: string, fallback: T): T {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }

  /** Whether `key` is present. */
  has(key: string): boolean {
    return this.values.has(key);
  }

  /** Whether the context holds no entries. */
  get isEmpty(): boolean {
    return this.values.size === 0;
  }

  /** Number of entries. */
  get size(): number {
    return this.values.size;
  }

  /** The entries, in insertion order. */
  entries(): IterableIterator<[string, unknown]> {
    return this.values.entries();
  }

  /** A plain-object copy of the entries. */
  toRecord(): Record<string, unknown> {
    return Object.fromEntries(this.values);
  }

  /** A new context with `other`'s entries added; `other` wins on conflict. */
  merge(other: ToolCallContextInit): ToolCallContext {
    const right = ToolCallContext.of(other);
    if (right.isEmpty) return this;
    if (this.isEmpty) return right;
    return new ToolCallContext(new Map([...this.values, ...right.values]));
  }

  /** A new context with `key` set to `value`. */
  with(key: string, value: unknown): ToolCallContext {
    return new ToolCallContext(new Map([...this.values, [key, value]]));
  }

  /** The id of the tool loop this call belongs to, if any. */
  loopId(): string | undefined {
    const id = this.values.get(ToolCallContext.LOOP_ID_KEY);
    return typeof id === "string" ? id : undefined;
  }

  /** Same entries, same values. */
  equals(other: ToolCallContext): boolean {
    if (other.values.size !== this.values.size) return false;
    for (const [key, value] of this.values) {
      if (!other.values.has(key) || !Object.is(other.values.get(key), value)) return false;
    }
    return true;
  }

  /** A short description, for logs. */
  toString(): string {
    const body = [...this.values].map(([key, value]) => `${key}=${String(value)}`).join(", ");
    return `ToolCallContext({${body}})`;
  }
}
