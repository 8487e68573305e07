import { SerializationError } from "../errors/serialization-error.js";
import { typeNameOf } from "../tool/type-token.js";
import type { TypeEntry, TypeRegistry } from "./type-registry.js";

/**
 * Turns values into JSON-safe trees and back, keeping types and the object
 * graph: plain data as is; `undefined`, non-finite numbers, bigints, `Date`,
 * `Map`, `Set` and errors as tagged nodes; instances of registered classes,
 * `domainType` values and codec types as `{ $t: name, v: fields }` (or
 * `j: toJSON()`). Every object is numbered in the order it is first written;
 * meeting it again writes `{ $ref: n }`, so an object reached twice comes
 * back as one object and cycles round-trip (except through an object rebuilt
 * from its JSON: `fromJSON`, a codec, a `domainType`, which is a
 * {@link SerializationError}). Anything else is a {@link SerializationError}
 * naming its type and where it was found.
 */
export class WireValues {
  constructor(private readonly registry: TypeRegistry) {}

  /** The JSON-safe tree for `value` (one object graph); `where` names it in errors (`blackboard[2]`). */
  encode(value: unknown, where: string): unknown {
    return this.writer().write(value, where);
  }

  /** The value back from {@link WireValues.encode}'s tree; a damaged tree is a {@link SerializationError}. */
  decode(tree: unknown, where: string): unknown {
    return this.reader().read(tree, where);
  }

  /** A writer whose trees share one numbering: an object met in an earlier `write` is a `$ref` in a later one. */
  writer(): WireWriter {
    return new WireWriter(this.registry);
  }

  /**
   * A reader for a writer's trees, read in the order they were written.
   * `legacyRefs` reads the format before graphs (checkpoint format 1), where
   * `$ref` is a position in the blackboard's objects.
   */
  reader(legacyRefs?: readonly unknown[]): WireReader {
    return new WireReader(this.registry, legacyRefs);
  }
}

/** Writes values as trees numbering their objects; see {@link WireValues.writer}. */
export class WireWriter {
  private readonly ids = new Map<object, number>();
  /** Objects being written that the reader rebuilds only after their contents: a reference back to one is a cycle it cannot restore. */
  private readonly rebuilt = new Set<object>();

  constructor(private readonly registry: TypeRegistry) {}

  /** The tree for `value`; `where` names it in errors. */
  write(value: unknown, where: string): unknown {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        return Number.isFinite(value) ? value : { $t: "Number", v: String(value) };
      case "undefined":
        return { $t: "undefined" };
      case "bigint":
        return { $t: "BigInt", v: value.toString() };
      case "function":
      case "symbol":
        throw unserialisable(typeof value === "function" ? "Function" : "Symbol", where, this.registry);
    }
    if (value === null) return null;
    const object = value as object;
    const id = this.ids.get(object);
    if (id !== undefined) {
      if (this.rebuilt.has(object)) {
        const type = typeNameOf(object);
        throw new SerializationError(
          `Cannot serialise ${where}: it refers back to an enclosing '${type}', which is rebuilt from its JSON (toJSON/fromJSON, a codec or a domainType), so the cycle cannot be restored. Break the cycle, or let the class be rebuilt field by field (no fromJSON).`,
          type,
        );
      }
      return { $ref: id };
    }
    const proto = Object.getPrototypeOf(object);
    const plain = proto === Object.prototype || proto === null;
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    // A plain object with its own toJSON is written as what toJSON gives (as JSON.stringify does).
    if (plain && typeof toJSON === "function") return this.write(toJSON.call(object), where);
    this.ids.set(object, this.ids.size);
    return this.writeObject(object, where, plain);
  }

  private writeObject(object: object, where: string, plain: boolean): unknown {
    const child = (value: unknown, key: string | number) =>
      this.write(value, typeof key === "number" ? `${where}[${key}]` : `${where}.${key}`);
    if (Array.isArray(object)) return object.map((item, index) => child(item, index));
    const name = typeNameOf(object);
    const entry = this.registry.entryFor(object, plain ? name : undefined);
    if (entry) return this.writeTyped(object, entry, child);
    if (plain) {
      const fields = this.fields(object, child);
      return "$t" in fields || "$ref" in fields ? { $t: "Object", v: fields } : fields;
    }
    if (object instanceof Date) return { $t: "Date", v: object.toISOString() };
    if (object instanceof Map)
      return { $t: "Map", v: [...object].map(([k, v], i) => [child(k, i), child(v, i)]) };
    if (object instanceof Set) return { $t: "Set", v: [...object].map((item, index) => child(item, index)) };
    if (object instanceof Error) return { $t: "Error", v: { name: object.name, message: object.message } };
    throw unserialisable(name, where, this.registry);
  }

  private writeTyped(
    object: object,
    entry: TypeEntry,
    child: (value: unknown, key: string) => unknown,
  ): unknown {
    const toJSON = (object as { toJSON?: () => unknown }).toJSON;
    const fieldByField =
      entry.kind === "class" &&
      typeof toJSON !== "function" &&
      typeof (entry.type as { fromJSON?: unknown }).fromJSON !== "function";
    if (fieldByField) return { $t: entry.name, v: this.fields(object, child) };
    this.rebuilt.add(object);
    try {
      if (entry.kind === "codec") return { $t: entry.name, v: child(entry.codec.toJSON(object), "toJSON()") };
      if (typeof toJSON === "function") return { $t: entry.name, j: child(toJSON.call(object), "toJSON()") };
      return { $t: entry.name, v: this.fields(object, child) };
    } finally {
      this.rebuilt.delete(object);
    }
  }

  private fields(object: object, child: (value: unknown, key: string) => unknown): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    // defineProperty, not assignment: an own `__proto__` key (JSON.parse makes them) must stay a field.
    for (const [key, value] of Object.entries(object)) defineField(fields, key, child(value, key));
    return fields;
  }
}

/** Marks an object whose number is taken but which is not built yet. */
const PENDING: unique symbol = Symbol("pending");

/** How deep a tree may nest before reading it is refused (far beyond any real object graph). */
const MAX_DEPTH = 1_000;

/** Reads a {@link WireWriter}'s trees back; see {@link WireValues.reader}. */
export class WireReader {
  private readonly values: unknown[] = [];
  private depth = 0;

  constructor(
    private readonly registry: TypeRegistry,
    private readonly legacyRefs?: readonly unknown[],
  ) {}

  /** The value back from one of the writer's trees; `where` names it in errors, as does a {@link SerializationError} for a damaged tree. */
  read(tree: unknown, where: string): unknown {
    if (typeof tree !== "object" || tree === null) return tree;
    if (this.depth >= MAX_DEPTH) throw damaged(where, `it nests deeper than ${MAX_DEPTH} levels`);
    this.depth++;
    try {
      return this.readObject(tree, where);
    } catch (error) {
      // A smaller stack than the writer's (a worker thread) runs out before MAX_DEPTH.
      if (this.depth === 1 && error instanceof RangeError)
        throw damaged(where, "it nests too deeply to read here");
      throw error;
    } finally {
      this.depth--;
    }
  }

  private readObject(tree: object, where: string): unknown {
    if (Array.isArray(tree)) {
      const array: unknown[] = this.take([]);
      tree.forEach((item, index) => {
        array.push(this.read(item, `${where}[${index}]`));
      });
      return array;
    }
    const node = tree as { $t?: unknown; $ref?: unknown; v?: unknown; j?: unknown };
    if (Object.hasOwn(node, "$ref")) return this.ref(node.$ref, where);
    if (!Object.hasOwn(node, "$t")) return this.fillFields(this.take({}), tree, where);
    if (typeof node.$t !== "string") throw damaged(where, "its type tag ($t) is not a string");
    const value = node.v;
    switch (node.$t) {
      case "undefined":
        return undefined;
      case "Number":
        if (value !== "NaN" && value !== "Infinity" && value !== "-Infinity")
          throw damaged(where, `${JSON.stringify(value)} is not NaN or ±Infinity`);
        return Number(value);
      case "BigInt":
        if (typeof value !== "string" || !/^-?\d+$/.test(value))
          throw damaged(where, `${JSON.stringify(value)} is not a BigInt`);
        return BigInt(value);
      case "Object":
        return this.fillFields(this.take({}), objectOf(value, where), where);
      case "Date": {
        const date = new Date(value as string);
        if (typeof value !== "string" || Number.isNaN(date.getTime()))
          throw damaged(where, `${JSON.stringify(value)} is not a date`);
        return this.take(date);
      }
      case "Map": {
        const map = this.take(new Map<unknown, unknown>());
        for (const entry of arrayOf(value, where)) {
          if (!Array.isArray(entry) || entry.length !== 2)
            throw damaged(where, "a Map entry is not a [key, value] pair");
          const key = this.read(entry[0], where);
          map.set(key, this.read(entry[1], where));
        }
        return map;
      }
      case "Set": {
        const set = this.take(new Set<unknown>());
        for (const item of arrayOf(value, where)) set.add(this.read(item, where));
        return set;
      }
      case "Error": {
        const { name, message } = objectOf(value, where) as { name?: unknown; message?: unknown };
        if (typeof name !== "string" || typeof message !== "string")
          throw damaged(where, "an error needs a string name and message");
        const error = new Error(message);
        error.name = name;
        return this.take(error);
      }
    }
    const entry = this.registry.get(node.$t);
    if (!entry) {
      throw new SerializationError(
        `Cannot restore ${where}: no type named '${node.$t}' is known here. Deploy an agent that declares it as an input or output, or pass it in types: [${node.$t}]. Known types: [${this.registry.names.join(", ")}]`,
        node.$t,
      );
    }
    const fromJSON =
      entry.kind === "class"
        ? (entry.type as unknown as { fromJSON?: (json: unknown) => unknown }).fromJSON
        : undefined;
    if (entry.kind === "class" && !("j" in node) && typeof fromJSON !== "function") {
      // Field by field: the instance exists before its fields, so they may refer back to it.
      return this.fillFields(
        this.take(Object.create(entry.type.prototype as object) as object),
        value,
        where,
      );
    }
    const id = this.values.length;
    this.values.push(PENDING);
    const fields =
      entry.kind === "codec" || "j" in node
        ? this.read("j" in node ? node.j : value, where)
        : this.fillFields({}, value, where);
    let built: unknown;
    switch (entry.kind) {
      case "codec":
        built = entry.codec.fromJSON(fields);
        break;
      case "domain":
        built = entry.token.parse(fields);
        break;
      case "class":
        built =
          typeof fromJSON === "function"
            ? fromJSON.call(entry.type, fields)
            : this.fillFields(Object.create(entry.type.prototype as object) as object, fields, where, false);
        break;
    }
    this.values[id] = built;
    return built;
  }

  /** Numbers `object` as the next object met (the writer's order). */
  private take<T>(object: T): T {
    this.values.push(object);
    return object;
  }

  private ref(id: unknown, where: string): unknown {
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0) {
      throw damaged(where, `its $ref ${JSON.stringify(id)} is not an object number`);
    }
    if (this.legacyRefs) {
      if (id >= this.legacyRefs.length)
        throw damaged(
          where,
          `its $ref ${id} names no blackboard object (there are ${this.legacyRefs.length})`,
        );
      return this.legacyRefs[id];
    }
    const value = this.values[id];
    if (id >= this.values.length || value === PENDING) {
      throw new SerializationError(
        `Cannot restore ${where}: it refers to object #${id}, which is not restored yet (the data is damaged or was written in another order).`,
        "$ref",
      );
    }
    return value;
  }

  /** Copies the fields of `tree` onto `target`, reading each (or, with `read` false, as they are). */
  private fillFields<T extends object>(target: T, tree: unknown, where: string, read = true): T {
    for (const [key, value] of Object.entries(objectOf(tree, where))) {
      defineField(target, key, read ? this.read(value, `${where}.${key}`) : value);
    }
    return target;
  }
}

/** Sets an own, enumerable field, even one named `__proto__` (where assignment would set the prototype). */
function defineField(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function damaged(where: string, problem: string): SerializationError {
  const place = where.length > 160 ? `${where.slice(0, 80)}…${where.slice(-60)}` : where;
  return new SerializationError(`Cannot restore ${place}: ${problem} (the data is damaged).`, "damaged");
}

function objectOf(value: unknown, where: string): object {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw damaged(
      where,
      `expected an object of fields, found ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`,
    );
  return value;
}

function arrayOf(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw damaged(where, `expected an array, found ${JSON.stringify(value)}`);
  return value;
}

function unserialisable(typeName: string, where: string, registry: TypeRegistry): SerializationError {
  return new SerializationError(
    `Cannot serialise ${where}: an object of type '${typeName}' is not a known type. Declare it as an input or output of a deployed agent, pass it in types: [${typeName}] (a class, a domainType, or a codec { name, is, toJSON, fromJSON }), or make it plain JSON data. Known types: [${registry.names.join(", ")}]`,
    typeName,
  );
}
