/**
 * The one place that makes `Symbol.metadata` exist on Node 20, which lacks
 * it. TC39 decorators share per-class metadata through `Symbol.metadata`;
 * TypeScript's lowered output only creates it when the symbol exists when the
 * class is defined, and esbuild falls back to `Symbol.for("Symbol.metadata")`.
 * Defining it as that same registered symbol makes both agree. Every
 * decorator module imports {@link METADATA} from here (a used import, so
 * bundlers honouring `sideEffects: false` keep it), which runs this before
 * any decorated class of the user's is defined.
 */
const symbolConstructor = Symbol as unknown as { metadata?: symbol };
symbolConstructor.metadata ??= Symbol.for("Symbol.metadata");

/** `Symbol.metadata`, guaranteed to exist. */
export const METADATA: symbol = symbolConstructor.metadata;

/** Decorator metadata: one object per decorated class, prototype-chained to its superclass's. */
export type DecoratorMetadataObject = Record<PropertyKey, unknown>;

/** The decorator metadata of a class, or of an instance's class; `undefined` when it has none. */
export function decoratorMetadataOf(target: object): DecoratorMetadataObject | undefined {
  const ctor = typeof target === "function" ? target : (target as { constructor?: unknown }).constructor;
  if (typeof ctor !== "function") return undefined;
  const metadata = (ctor as unknown as Record<symbol, unknown>)[METADATA];
  return typeof metadata === "object" && metadata !== null
    ? (metadata as DecoratorMetadataObject)
    : undefined;
}

/** The list under `key` that belongs to this very class (not its superclass), created on first use. */
export function ownMetadataList<T>(metadata: DecoratorMetadataObject, key: symbol): T[] {
  if (!Object.hasOwn(metadata, key)) metadata[key] = [];
  return metadata[key] as T[];
}

/** The lists under `key` along the class chain, superclass first. */
export function metadataListsOf<T>(target: object, key: symbol): (readonly T[])[] {
  const lists: (readonly T[])[] = [];
  let metadata: DecoratorMetadataObject | null | undefined = decoratorMetadataOf(target);
  while (metadata) {
    if (Object.hasOwn(metadata, key)) lists.unshift(metadata[key] as readonly T[]);
    metadata = Object.getPrototypeOf(metadata) as DecoratorMetadataObject | null;
  }
  return lists;
}
