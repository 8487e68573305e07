import type { ProcessCheckpoint } from "../platform/process-checkpoint.js";
import type { WireValues } from "./wire-value.js";

/**
 * A {@link ProcessCheckpoint} as one JSON string: the blackboard's objects
 * are written once, and bindings, hidden objects, the result and the failure
 * that are blackboard objects refer to them by position, so identity
 * survives the trip.
 */
export function encodeCheckpoint(checkpoint: ProcessCheckpoint, wire: WireValues): string {
  const { blackboard } = checkpoint;
  const objects = blackboard.objects.map((value, index) => wire.encode(value, `blackboard[${index}]`));
  const refs = new Map<unknown, number>();
  blackboard.objects.forEach((value, index) => {
    if (typeof value === "object" && value !== null && !refs.has(value)) refs.set(value, index);
  });
  const ref = (value: unknown, where: string) => wire.encode(value, where, refs);
  return JSON.stringify({
    ...checkpoint,
    result: ref(checkpoint.result, "the result"),
    failure: ref(checkpoint.failure, "the failure"),
    blackboard: {
      objects,
      hidden: blackboard.hidden.map((value) => refs.get(value)),
      bindings: blackboard.bindings.map(([name, value]) => [name, ref(value, `binding '${name}'`)]),
      protectedNames: blackboard.protectedNames,
      conditions: blackboard.conditions,
    },
  });
}

/** The checkpoint back from {@link encodeCheckpoint}'s string. */
export function decodeCheckpoint(text: string, wire: WireValues): ProcessCheckpoint {
  const raw = JSON.parse(text) as Omit<ProcessCheckpoint, "blackboard"> & {
    blackboard: {
      objects: unknown[];
      hidden: number[];
      bindings: [string, unknown][];
      protectedNames: string[];
      conditions: [string, boolean][];
    };
  };
  const objects = raw.blackboard.objects.map((tree, index) => wire.decode(tree, `blackboard[${index}]`));
  const deref = (tree: unknown, where: string) => wire.decode(tree, where, objects);
  return {
    ...raw,
    result: deref(raw.result, "the result"),
    failure: deref(raw.failure, "the failure"),
    blackboard: {
      objects,
      hidden: raw.blackboard.hidden.map((index) => objects[index]),
      bindings: raw.blackboard.bindings.map(
        ([name, tree]) => [name, deref(tree, `binding '${name}'`)] as const,
      ),
      protectedNames: raw.blackboard.protectedNames,
      conditions: raw.blackboard.conditions,
    },
  };
}
