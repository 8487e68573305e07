import { ConfigurationError } from "../errors/configuration-error.js";
import type { Agent } from "../platform/agent.js";
import { DomainType, type TypeLike, TypeToken } from "../tool/type-token.js";

/** A hand-written codec for a type the registry cannot handle by itself (a class with private fields, a library object). */
export interface TypeCodec<T = unknown> {
  /** The name written on the wire; unique among the registered types. */
  readonly name: string;
  /** Whether `value` is of this type. */
  is(value: unknown): value is T;
  /** A JSON value standing for `value`. */
  toJSON(value: T): unknown;
  /** The value back from what {@link TypeCodec.toJSON} produced. */
  fromJSON(json: unknown): T;
}

/** What a `TypeRegistry` can be given: classes, `domainType`s, or hand-written codecs. */
export type RegisteredType = TypeLike | TypeCodec;

type Constructor = abstract new (...args: never[]) => unknown;

/** How one named type crosses the wire. */
export type TypeEntry =
  | { readonly kind: "class"; readonly name: string; readonly type: Constructor }
  | { readonly kind: "domain"; readonly name: string; readonly token: DomainType<unknown> }
  | { readonly kind: "codec"; readonly name: string; readonly codec: TypeCodec };

/**
 * The types whose objects may travel between machines, by name: the input
 * and output types the deployed agents declare (actions' inputs and outputs,
 * goals' outputs), plus types given by hand. Plain JSON data, `Date`, `Map`,
 * `Set` and errors need no entry.
 */
export class TypeRegistry {
  private readonly byName = new Map<string, TypeEntry>();
  private readonly byClass = new Map<Constructor, TypeEntry>();
  private readonly codecs: TypeEntry[] = [];

  private constructor() {}

  /** A registry of `agents`' declared types and the `types` given (classes, `domainType`s, codecs). */
  static of(agents: Iterable<Agent>, types: Iterable<RegisteredType> = []): TypeRegistry {
    const registry = new TypeRegistry();
    for (const type of types) registry.add(type);
    for (const agent of agents) {
      for (const action of agent.actions) {
        for (const input of action.inputs) registry.addToken(input);
        if (action.output) registry.addToken(action.output);
      }
      for (const goal of agent.goals) if (goal.output) registry.addToken(goal.output);
    }
    return registry;
  }

  /** The entry named `name`, or `undefined`. */
  get(name: string): TypeEntry | undefined {
    return this.byName.get(name);
  }

  /** The entry for an object that is not plain JSON: its hand-written codec, domain type or class. */
  entryFor(value: object, domainName: string | undefined): TypeEntry | undefined {
    for (const entry of this.codecs) if (entry.kind === "codec" && entry.codec.is(value)) return entry;
    if (domainName !== undefined) {
      const entry = this.byName.get(domainName);
      if (entry?.kind === "domain") return entry;
    }
    // The prototype's constructor: an own `constructor` field (JSON.parse makes them) is data, not the class.
    return this.byClass.get(Object.getPrototypeOf(value)?.constructor as Constructor);
  }

  /** The registered names, sorted (for error messages). */
  get names(): readonly string[] {
    return [...this.byName.keys()].sort();
  }

  private add(type: RegisteredType): void {
    if (isCodec(type)) {
      const entry: TypeEntry = { kind: "codec", name: type.name, codec: type };
      this.register(entry, type);
      this.codecs.push(entry);
      return;
    }
    this.addToken(TypeToken.of(type as TypeLike));
  }

  private addToken(token: TypeToken): void {
    if (token instanceof DomainType) {
      this.register({ kind: "domain", name: token.name, token }, token);
      return;
    }
    const type = (token as { type?: unknown }).type;
    if (typeof type === "function") {
      const entry: TypeEntry = { kind: "class", name: token.name, type: type as Constructor };
      if (this.register(entry, type)) this.byClass.set(type as Constructor, entry);
    }
    // Primitive, anonymous-schema and ANY tokens describe plain JSON: nothing to register.
  }

  /** Adds `entry`; false when `identity` is already registered under its name. */
  private register(entry: TypeEntry, identity: unknown): boolean {
    const existing = this.byName.get(entry.name);
    if (existing) {
      if (identityOf(existing) === identity) return false;
      throw new ConfigurationError(
        `Two different types are named '${entry.name}': objects cross the wire by type name, so give each a distinct name (rename the class, or domainType(name, schema)).`,
      );
    }
    this.byName.set(entry.name, entry);
    return true;
  }
}

function identityOf(entry: TypeEntry): unknown {
  return entry.kind === "class" ? entry.type : entry.kind === "domain" ? entry.token : entry.codec;
}

function isCodec(value: unknown): value is TypeCodec {
  return (
    typeof value === "object" &&
    value !== null &&
    !TypeToken.isTypeToken(value) &&
    typeof (value as TypeCodec).toJSON === "function" &&
    typeof (value as TypeCodec).fromJSON === "function" &&
    typeof (value as TypeCodec).is === "function"
  );
}
