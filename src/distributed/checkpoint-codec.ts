import { CheckpointError } from "../errors/checkpoint-error.js";
import { SerializationError } from "../errors/serialization-error.js";
import { AgentProcessStatus } from "../platform/agent-process-status.js";
import type { ProcessCheckpoint } from "../platform/process-checkpoint.js";
import type { WaitState } from "../platform/process-waits.js";
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
  const waiting = mapLoopStates(checkpoint.waiting, (states, where) =>
    Object.fromEntries(
      Object.entries(states).map(([key, value]) => [key, writer.write(value, `${where}.${key}`)]),
    ),
  );
  return JSON.stringify({
    format: CHECKPOINT_FORMAT,
    ...checkpoint,
    ...(waiting === undefined ? {} : { waiting }),
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
 * can be upgraded while processes run. `processId` (the job's id, where the
 * checkpoint was found) wins over an id written inside it. Anything it cannot
 * read (not JSON, a missing or malformed field, a `$ref` to no object, a
 * newer format) is a {@link CheckpointError} naming the process and the
 * problem, never a partly restored process.
 */
export function decodeCheckpoint(text: string, wire: WireValues, processId?: string): ProcessCheckpoint {
  let raw: StoredCheckpoint;
  try {
    raw = JSON.parse(text) as StoredCheckpoint;
  } catch (error) {
    throw new CheckpointError(processId ?? "(unknown)", `it is not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  const id = processId ?? (isRecord(raw) && typeof raw.id === "string" ? raw.id : "(unknown)");
  const format = isRecord(raw) && typeof raw.format === "number" ? raw.format : 1;
  if (format > CHECKPOINT_FORMAT) {
    throw new CheckpointError(
      id,
      `it is in format ${format}, written by a newer embabel-ts; this one reads formats 1 to ${CHECKPOINT_FORMAT}. Upgrade this worker or caller.`,
    );
  }
  const problem = shapeProblem(raw);
  if (problem !== undefined) throw new CheckpointError(id, problem);
  try {
    return { ...readValues(raw, format, wire), id };
  } catch (error) {
    const reason = SerializationError.isInstance(error)
      ? error.message
      : `${(error as Error).name}: ${(error as Error).message}`;
    throw new CheckpointError(id, reason, { cause: error });
  }
}

function readValues(raw: StoredCheckpoint, format: number, wire: WireValues): ProcessCheckpoint {
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
  const waiting = mapLoopStates(rest.waiting, (states, where) => {
    const read: Record<string, unknown> = {};
    for (const [key, tree] of Object.entries(states))
      Object.defineProperty(read, key, {
        value: reader.read(tree, `${where}.${key}`),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return read;
  });
  const hidden = blackboard.hidden.map((index) => {
    if (index < 0 || index >= objects.length)
      throw new SerializationError(
        `hidden object #${index} is not on the blackboard (the data is damaged).`,
        "damaged",
      );
    return objects[index];
  });
  return {
    ...rest,
    ...(waiting === undefined ? {} : { waiting }),
    result,
    failure,
    blackboard: {
      objects,
      hidden,
      bindings,
      protectedNames: blackboard.protectedNames,
      conditions: blackboard.conditions,
    },
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isArrayOf = (value: unknown, each: (item: unknown) => boolean): boolean =>
  Array.isArray(value) && value.every(each);
const isString = (value: unknown) => typeof value === "string";
const isNumber = (value: unknown) => typeof value === "number" && Number.isFinite(value);
const isIndex = (value: unknown) => Number.isInteger(value);
const isPair = (second: (value: unknown) => boolean) => (value: unknown) =>
  Array.isArray(value) && value.length === 2 && isString(value[0]) && second(value[1]);
const optional = (check: (value: unknown) => boolean) => (value: unknown) =>
  value === undefined || check(value);

/**
 * What each field the platform reads must look like. Fields not listed pass
 * through unread, so a newer writer's additions (kept in the same format) do
 * not make older readers fail.
 */
const FIELDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  format: optional(isIndex),
  status: (value) => (AgentProcessStatus.ALL as readonly unknown[]).includes(value),
  agentName: optional(isString),
  parentId: optional(isString),
  startedAt: isNumber,
  endedAt: optional(isNumber),
  statusReason: optional(isString),
  goalName: optional(isString),
  terminateRequest: optional(isString),
  history: (value) => isArrayOf(value, isRecord),
  usage: isRecord,
  costUsd: isNumber,
  llmInvocations: isNumber,
  embeddingInvocations: optional(isNumber),
  modelsUsed: Array.isArray,
  toolStats: (value) => isArrayOf(value, isPair(isRecord)),
  blackboard: isRecord,
};

const BLACKBOARD_FIELDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  hidden: (value) => isArrayOf(value, isIndex),
  bindings: (value) =>
    isArrayOf(
      value,
      isPair(() => true),
    ),
  protectedNames: (value) => isArrayOf(value, isString),
  conditions: (value) =>
    isArrayOf(
      value,
      isPair((flag) => typeof flag === "boolean"),
    ),
};

/** Why `raw` is not a checkpoint this reader can restore, or `undefined`. */
function shapeProblem(raw: unknown): string | undefined {
  if (!isRecord(raw)) return "it is not a JSON object";
  for (const [field, check] of Object.entries(FIELDS)) {
    if (!check(raw[field])) return `the field '${field}' is missing or malformed (${preview(raw[field])})`;
  }
  const blackboard = raw.blackboard as Record<string, unknown>;
  for (const [field, check] of Object.entries(BLACKBOARD_FIELDS)) {
    if (!check(blackboard[field]))
      return `the field 'blackboard.${field}' is missing or malformed (${preview(blackboard[field])})`;
  }
  const trees = (raw.format ?? 1) === 1 ? "objects" : "values";
  if (!Array.isArray(blackboard[trees])) return `the field 'blackboard.${trees}' is missing or malformed`;
  return undefined;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * `waiting` with the kept states of its stopped tool loops (values like the
 * blackboard's: chaining bindings, a playbook's artifacts) mapped by `map`,
 * in journal order; `undefined` when no stopped loop keeps any.
 */
function mapLoopStates(
  waiting: WaitState | undefined,
  map: (states: Readonly<Record<string, unknown>>, where: string) => Record<string, unknown>,
): WaitState | undefined {
  if (!Array.isArray(waiting?.journal)) return undefined;
  let changed = false;
  const journal = waiting.journal.map((entry, index) => {
    if (entry?.kind !== "loop-suspended") return entry;
    const states = entry.loop.states;
    if (typeof states !== "object" || states === null) return entry;
    changed = true;
    return { ...entry, loop: { ...entry.loop, states: map(states, `waiting loop #${index} state`) } };
  });
  return changed ? { ...waiting, journal } : undefined;
}
