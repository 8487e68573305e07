import { flatUuid } from "../loop/flat-uuid.js";
import { type TypeLike, type TypeOf, TypeToken, typeNamesOf } from "../tool/type-token.js";

/** A type to look objects up by: a type token (class, `domainType`, zod schema) or a type name. */
export type TypeSelector = TypeLike | string;

/**
 * Everything a blackboard holds, as plain lists (see {@link Blackboard.snapshot}):
 * what a runner serialises to move a process between machines.
 */
export interface BlackboardSnapshot {
  /** Every object in order, hidden ones included. */
  readonly objects: readonly unknown[];
  /** The hidden objects (each also in `objects`). */
  readonly hidden: readonly unknown[];
  /** Name → value, in binding order. */
  readonly bindings: readonly (readonly [string, unknown])[];
  /** Binding names that survive {@link Blackboard.clear}. */
  readonly protectedNames: readonly string[];
  /** Condition flags, in the order first set. */
  readonly conditions: readonly (readonly [string, boolean])[];
}

/** The value a {@link TypeSelector} selects. */
export type SelectedType<S> = S extends string ? unknown : TypeOf<S>;

/**
 * The shared memory of an agent process: an ordered list of objects, named
 * bindings, and boolean condition flags. Actions read their inputs from it
 * and add their outputs to it; the planner reads which types are on it.
 */
export class Blackboard {
  /** The blackboard this one was spawned from, if any. */
  readonly parent: Blackboard | undefined;
  private readonly entries: unknown[];
  private readonly bindings: Map<string, unknown>;
  // Created on first use: most blackboards never hide, protect or flag anything.
  private conditions: Map<string, boolean> | undefined;
  private hidden: Set<unknown> | undefined;
  private protectedKeys: Set<string> | undefined;
  private readonly ownStart: number;
  /** The names bound on this blackboard itself; only a spawned child keeps them (on a root, every binding is its own). */
  private readonly ownBindingNames: Set<string> | undefined;
  private uuid: string | undefined;
  /** Told of each appended object; none unless someone observes (see {@link Blackboard.observeAdditions}). */
  private observers: ((value: unknown) => void)[] | undefined;

  constructor(parent?: Blackboard) {
    this.parent = parent;
    this.entries = parent ? [...parent.entries] : [];
    this.hidden = parent?.hidden && new Set(parent.hidden);
    this.bindings = parent ? new Map(parent.bindings) : new Map();
    this.conditions = parent?.conditions && new Map(parent.conditions);
    this.protectedKeys = parent?.protectedKeys && new Set(parent.protectedKeys);
    this.ownStart = this.entries.length;
    this.ownBindingNames = parent ? new Set() : undefined;
  }

  /** Unique id; a spawned child gets its own. */
  get id(): string {
    this.uuid ??= flatUuid();
    return this.uuid;
  }

  /** Appends `value` (the latest object of its type from now on). */
  add(value: unknown): this {
    this.append(value);
    return this;
  }

  /** Appends every value, in order. */
  addAll(values: Iterable<unknown>): this {
    for (const value of values) this.add(value);
    return this;
  }

  /** Binds `name` to `value` and appends it, unless it is already the latest object. */
  bind(name: string, value: unknown): this {
    this.bindings.set(name, value);
    this.ownBindingNames?.add(name);
    if (this.entries[this.entries.length - 1] !== value) this.append(value);
    return this;
  }

  /**
   * Calls `observer` with every object appended from now on (by `add`,
   * `addAll`, `bind`), until the returned function is called. An observed
   * agent process uses it for its `object-added` events; an observer must not throw.
   */
  observeAdditions(observer: (value: unknown) => void): () => void {
    this.observers = [...(this.observers ?? []), observer];
    return () => {
      this.observers = this.observers?.filter((kept) => kept !== observer);
    };
  }

  private append(value: unknown): void {
    this.entries.push(value);
    const observers = this.observers;
    if (observers === undefined) return;
    for (const observer of observers) observer(value);
  }

  /** As {@link Blackboard.bind}, and the binding survives {@link Blackboard.clear}. */
  bindProtected(name: string, value: unknown): this {
    this.protectedKeys ??= new Set();
    this.protectedKeys.add(name);
    return this.bind(name, value);
  }

  /** The value bound to `name`, unless hidden. */
  get(name: string): unknown {
    const value = this.bindings.get(name);
    return this.hidden?.has(value) ? undefined : value;
  }

  /** The names bound, in binding order. */
  get names(): readonly string[] {
    return [...this.bindings.keys()];
  }

  /** The visible objects, oldest first (a spawned child starts with its parent's). */
  get objects(): readonly unknown[] {
    const hidden = this.hidden;
    return hidden === undefined || hidden.size === 0
      ? [...this.entries]
      : this.entries.filter((value) => !hidden.has(value));
  }

  /** The objects added to this blackboard itself, not inherited from the parent at spawn time. */
  get ownObjects(): readonly unknown[] {
    return this.entries.slice(this.ownStart).filter((value) => !this.isHidden(value));
  }

  /** The bindings made on this blackboard itself (not inherited), as name → value. */
  get ownBindings(): ReadonlyMap<string, unknown> {
    const names = this.ownBindingNames;
    if (names === undefined) return new Map(this.bindings);
    return new Map(
      [...names].filter((name) => this.bindings.has(name)).map((name) => [name, this.bindings.get(name)]),
    );
  }

  /** The latest visible object of `type`, by token or by simple or qualified type name. */
  last<S extends TypeSelector>(type: S): SelectedType<S> | undefined {
    if (typeof type !== "string") {
      // The planner and every action input ask by token: no matcher closure for those.
      const token = TypeToken.of(type);
      for (let index = this.entries.length - 1; index >= 0; index--) {
        const value = this.entries[index];
        if (token.is(value) && !this.isHidden(value)) return value as SelectedType<S>;
      }
      return undefined;
    }
    const matches = matcher(type);
    for (let index = this.entries.length - 1; index >= 0; index--) {
      const value = this.entries[index];
      if (!this.isHidden(value) && matches(value)) return value as SelectedType<S>;
    }
    return undefined;
  }

  /** Every visible object of `type`, oldest first. */
  all<S extends TypeSelector>(type: S): SelectedType<S>[] {
    const matches = matcher(type);
    return this.objects.filter(matches) as SelectedType<S>[];
  }

  /** How many visible objects of `type` there are. */
  count(type: TypeSelector): number {
    return this.all(type).length;
  }

  /** Whether any visible object is of `type`. */
  has(type: TypeSelector): boolean {
    return this.last(type) !== undefined;
  }

  /** The latest visible object of any type. */
  lastResult(): unknown {
    for (let index = this.entries.length - 1; index >= 0; index--) {
      const value = this.entries[index];
      if (!this.isHidden(value)) return value;
    }
    return undefined;
  }

  /** Hides `value`: it stays stored but no lookup returns it. */
  hide(value: unknown): this {
    this.hidden ??= new Set();
    this.hidden.add(value);
    return this;
  }

  /** Sets the condition flag `name` (read by the planner when no condition function defines it). */
  setCondition(name: string, value: boolean): this {
    this.conditions ??= new Map();
    this.conditions.set(name, value);
    return this;
  }

  /** The condition flag `name`, or `undefined` when never set. */
  getCondition(name: string): boolean | undefined {
    return this.conditions?.get(name);
  }

  /** Removes every object, binding and condition except protected bindings and their values. */
  clear(): this {
    const kept = [...(this.protectedKeys ?? [])].map((name) => [name, this.bindings.get(name)] as const);
    this.entries.length = 0;
    this.bindings.clear();
    this.conditions?.clear();
    this.hidden?.clear();
    for (const [name, value] of kept) {
      this.bindings.set(name, value);
      if (!this.entries.includes(value)) this.entries.push(value);
    }
    return this;
  }

  /** Its objects, hidden set, bindings and conditions as plain lists (values are the objects themselves, not copies). */
  snapshot(): BlackboardSnapshot {
    return {
      objects: [...this.entries],
      hidden: this.entries.filter((value) => this.isHidden(value)),
      bindings: [...this.bindings],
      protectedNames: [...(this.protectedKeys ?? [])],
      conditions: [...(this.conditions ?? [])],
    };
  }

  /** A blackboard holding what `snapshot` describes (its bindings count as its own). */
  static fromSnapshot(snapshot: BlackboardSnapshot): Blackboard {
    const blackboard = new Blackboard();
    blackboard.entries.push(...snapshot.objects);
    for (const value of snapshot.hidden) blackboard.hide(value);
    for (const [name, value] of snapshot.bindings) {
      blackboard.bindings.set(name, value);
    }
    for (const name of snapshot.protectedNames) {
      blackboard.protectedKeys ??= new Set();
      blackboard.protectedKeys.add(name);
    }
    for (const [name, value] of snapshot.conditions) blackboard.setCondition(name, value);
    return blackboard;
  }

  /**
   * A derived child: it starts with a copy of this blackboard's objects,
   * bindings, conditions and hidden set, and writes its
   * own. Later changes on either side are not seen by the other; read what the
   * child added with {@link Blackboard.ownObjects}.
   */
  spawn(): Blackboard {
    return new Blackboard(this);
  }

  private isHidden(value: unknown): boolean {
    return this.hidden?.has(value) === true;
  }
}

/** A predicate for `type`: a token's `is`, or a match on the value's type names. */
export function typeMatcher(type: TypeSelector): (value: unknown) => boolean {
  return matcher(type);
}

function matcher(type: TypeSelector): (value: unknown) => boolean {
  if (typeof type !== "string") {
    const token = TypeToken.of(type);
    return (value) => token.is(value);
  }
  // A qualified name matches exactly that type; a bare name matches by simple name.
  const qualified = type.includes(".");
  return (value) => {
    if (value === undefined || value === null) return false;
    const names = [...taggedNames(value), ...typeNamesOf(value), ...declaredQualifiedNames(value)];
    return qualified
      ? names.includes(type)
      : names.some((name) => name === type || name.slice(name.lastIndexOf(".") + 1) === type);
  };
}

/** The `static qualifiedName` that the value's class and superclasses declare (`"com.example.Person"`). */
function declaredQualifiedNames(value: unknown): string[] {
  const names: string[] = [];
  if (typeof value !== "object" || value === null) return names;
  let proto: unknown = Object.getPrototypeOf(value);
  while (proto && proto !== Object.prototype) {
    const declared = (proto as { constructor?: { qualifiedName?: unknown } }).constructor?.qualifiedName;
    if (typeof declared === "string") names.push(declared);
    proto = Object.getPrototypeOf(proto);
  }
  return names;
}

function taggedNames(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [];
  const record = value as { _typeName?: unknown; _typeLabels?: unknown };
  const names = typeof record._typeName === "string" ? [record._typeName] : [];
  if (Array.isArray(record._typeLabels)) {
    for (const label of record._typeLabels) if (typeof label === "string") names.push(label);
  }
  return names;
}
