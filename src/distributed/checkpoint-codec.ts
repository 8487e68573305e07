import type { ProcessCheckpoint } from "../platform/process-checkpoint.js";
import type { WireReader, WireValues } from "./wire-value.js";

/** The checkpoint format {@link encodeCheckpoint} writes: 2 keeps the whole object graph; 1 (no `format` field) kept identity only between top-level blackboard objects. */
export const CHECKPOINT_FORMAT = 2;

interface StoredBlackboard {
  readonly hidden: number[];
  readonly bindings: [string, unknown][];
  readonly protectedNames: string[];
  readonly conditions: [string, boolean][];
}

type StoredCheckpoint = Omit<ProcessCheckpoint, "blackboard"> & {
  readonly format?: number;
  readonly blackboard: StoredBlackboard & { readonly values?: unknown[]; readonly objects?: unknown[] };
};

/**
 * A {@link ProcessCheckpoint} as one JSON string. Every value in it (the
 * blackboard's objects, bindings, the result, the failure) is written with
 * one {@link WireValues.writer}, so an object reached twice anywhere, at any
 * depth, comes back as one object, and cycles round-trip.
 */
export function encodeCheckpoint(checkpoint: ProcessCheckpoint, wire: WireValues): string {
  const { blackboard } = checkpoint;
  const writer = wire.writer();
  // The reader reads in this order: objects, bindings, result, failure.
  const values = blackboard.objects.map((value, index) => writer.write(value, `blackboard[${index}]`));
  const bindings = blackboard.bindings.map(([name, value]) => [
    name,
    writer.write(value, `binding '${name}'`),
  ]);
  const result = writer.write(checkpoint.result, "the result");
  const failure = writer.write(checkpoint.failure, "the failure");
  return JSON.stringify({
    format: CHECKPOINT_FORMAT,
    ...checkpoint,
    result,
    failure,
    blackboard: {
      values,
      hidden: blackboard.hidden.map((value) => blackboard.objects.indexOf(value)),
      bindings,
      protectedNames: blackboard.protectedNames,
      conditions: blackboard.conditions,
    },
  });
}

/**
 * The checkpoint back from {@link encodeCheckpoint}'s string; also reads
 * format 1 (written before object graphs were kept), so workers and callers
 * can be upgraded while processes run. A newer format is refused, naming it.
 */
export function decodeCheckpoint(text: string, wire: WireValues): ProcessCheckpoint {
  const raw = JSON.parse(text) as StoredCheckpoint;
  const format = raw.format ?? 1;
  if (format > CHECKPOINT_FORMAT) {
    throw new Error(
      `Cannot read the checkpoint of process ${raw.id}: it is in format ${format}, written by a newer embabel-ts; this one reads formats 1 to ${CHECKPOINT_FORMAT}. Upgrade this worker or caller.`,
    );
  }
  const { format: _format, blackboard, ...rest } = raw;
  let objects: unknown[];
  let reader: WireReader;
  if (format === 1) {
    // Format 1: each object is its own tree; `$ref` elsewhere is a position in the objects.
    objects = (blackboard.objects ?? []).map((tree, index) => wire.decode(tree, `blackboard[${index}]`));
    reader = wire.reader(objects);
  } else {
    reader = wire.reader();
    objects = (blackboard.values ?? []).map((tree, index) => reader.read(tree, `blackboard[${index}]`));
  }
  const bindings = blackboard.bindings.map(
    ([name, tree]) => [name, reader.read(tree, `binding '${name}'`)] as const,
  );
  const result = reader.read(raw.result, "the result");
  const failure = reader.read(raw.failure, "the failure");
  return {
    ...rest,
    result,
    failure,
    blackboard: {
      objects,
      hidden: blackboard.hidden.map((index) => objects[index]),
      bindings,
      protectedNames: blackboard.protectedNames,
      conditions: blackboard.conditions,
    },
  };
}
