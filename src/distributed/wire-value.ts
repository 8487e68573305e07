import { SerializationError } from "../errors/serialization-error.js";
import { typeNameOf } from "../tool/type-token.js";
import type { TypeRegistry } from "./type-registry.js";

/**
 * Turns values into JSON-safe trees and back, keeping types: plain data as
 * is; `undefined`, non-finite numbers, bigints, `Date`, `Map`, `Set` and
 * errors as tagged nodes; instances of registered classes, `domainType`
 * values and codec types as `{ $t: name, v: fields }`. Anything else is a
 * {@link SerializationError} naming its type and where it was found.
 */
export class WireValues {
  constructor(private readonly registry: TypeRegistry) {}

  /** The JSON-safe tree for `value`; `where` names it in errors (`blackboard[2]`). */
  encode(value: unknown, where: string, refs?: ReadonlyMap<unknown, number>): unknown {
    return this.write(value, where, refs, new Set());
  }

  /** The value back from {@link WireValues.encode}'s tree; `refs` resolves `$ref` nodes. */
  decode(tree: unknown, where: string, refs?: readonly unknown[]): unknown {
    return this.read(tree, where, refs);
  }

  private write(
    value: unknown,
    where: string,
    refs: ReadonlyMap<unknown, number> | undefined,
    path: Set<object>,
  ): unknown {
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
    const ref = refs?.get(object);
    if (ref !== undefined) return { $ref: ref };
    if (path.has(object)) {
      throw new SerializationError(
        `Cannot serialise ${where}: it refers back to itself (a cycle). Keep blackboard objects acyclic.`,
        typeNameOf(object),
      );
    }
    path.add(object);
    try {
      return this.writeObject(object, where, refs, path);
    } finally {
      path.delete(object);
    }
  }

  private writeObject(
    object: object,
    where: string,
    refs: ReadonlyMap<unknown, number> | undefined,
    path: Set<object>,
  ): unknown {
    const child = (value: unknown, key: string | number) =>
      this.write(value, typeof key === "number" ? `${where}[${key}]` : `${where}.${key}`, refs, path);
    if (Array.isArray(object)) return object.map((item, index) => child(item, index));
    const proto = Object.getPrototypeOf(object);
    const plain = proto === Object.prototype || proto === null;
    const name = typeNameOf(object);
    const entry = this.registry.entryFor(object, plain ? name : undefined);
    if (entry?.kind === "codec") return { $t: entry.name, v: child(entry.codec.toJSON(object), "toJSON()") };
    if (entry) return { $t: entry.name, v: this.fields(object, child) };
    if (plain) {
      const fields = this.fields(object, child) as Record<string, unknown>;
      return "$t" in fields || "$ref" in fields ? { $t: "Object", v: fields } : fields;
    }
    if (object instanceof Date) return { $t: "Date", v: object.toISOString() };
    if (object instanceof Map)
      return { $t: "Map", v: [...object].map(([k, v], i) => [child(k, i), child(v, i)]) };
    if (object instanceof Set) return { $t: "Set", v: [...object].map((item, index) => child(item, index)) };
    if (object instanceof Error) return { $t: "Error", v: { name: object.name, message: object.message } };
    throw unserialisable(name, where, this.registry);
  }

  private fields(object: object, child: (value: unknown, key: string) => unknown): unknown {
    const toJSON = (object as { toJSON?: () => unknown }).toJSON;
    if (typeof toJSON === "function") return child(toJSON.call(object), "toJSON()");
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) fields[key] = child(value, key);
    return fields;
  }

  private read(tree: unknown, where: string, refs: readonly unknown[] | undefined): unknown {
    if (typeof tree !== "object" || tree === null) return tree;
    if (Array.isArray(tree)) return tree.map((item, index) => this.read(item, `${where}[${index}]`, refs));
    const node = tree as { $t?: unknown; $ref?: unknown; v?: unknown };
    if (typeof node.$ref === "number" && refs) return refs[node.$ref];
    if (typeof node.$t !== "string") return this.readFields(tree, where, refs);
    const value = node.v;
    switch (node.$t) {
      case "undefined":
        return undefined;
      case "Number":
        return Number(value);
      case "BigInt":
        return BigInt(value as string);
      case "Object":
        return this.readFields(value, where, refs);
      case "Date":
        return new Date(value as string);
      case "Map":
        return new Map(
          (value as [unknown, unknown][]).map(([k, v]) => [
            this.read(k, where, refs),
            this.read(v, where, refs),
          ]),
        );
      case "Set":
        return new Set((value as unknown[]).map((item) => this.read(item, where, refs)));
      case "Error": {
        const { name, message } = value as { name: string; message: string };
        const error = new Error(message);
        error.name = name;
        return error;
      }
    }
    const entry = this.registry.get(node.$t);
    if (!entry) {
      throw new SerializationError(
        `Cannot restore ${where}: no type named '${node.$t}' is known here. Deploy an agent that declares it as an input or output, or pass it in types: [${node.$t}]. Known types: [${this.registry.names.join(", ")}]`,
        node.$t,
      );
    }
    const fields = this.read(value, where, refs);
    switch (entry.kind) {
      case "codec":
        return entry.codec.fromJSON(fields);
      case "domain":
        return entry.token.parse(fields);
      case "class": {
        const fromJSON = (entry.type as unknown as { fromJSON?: (json: unknown) => unknown }).fromJSON;
        if (typeof fromJSON === "function") return fromJSON.call(entry.type, fields);
        const instance = Object.create(entry.type.prototype as object) as object;
        for (const [key, field] of Object.entries(fields as object)) {
          Object.defineProperty(instance, key, {
            value: field,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return instance;
      }
    }
  }

  private readFields(tree: unknown, where: string, refs: readonly unknown[] | undefined): unknown {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(tree as object)) {
      Object.defineProperty(fields, key, {
        value: this.read(value, `${where}.${key}`, refs),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return fields;
  }
}

function unserialisable(typeName: string, where: string, registry: TypeRegistry): SerializationError {
  return new SerializationError(
    `Cannot serialise ${where}: an object of type '${typeName}' is not a known type. Declare it as an input or output of a deployed agent, pass it in types: [${typeName}] (a class, a domainType, or a codec { name, is, toJSON, fromJSON }), or make it plain JSON data. Known types: [${registry.names.join(", ")}]`,
    typeName,
  );
}
