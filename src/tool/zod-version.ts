import { ConfigurationError } from "../errors/configuration-error.js";

/** The zod versions embabel-ts is tested with (its peer dependency range). */
export const SUPPORTED_ZOD = "^4.1.8";

const NEEDS_ZOD_4 = "embabel-ts needs zod 4 (found 3.x)";

/**
 * Throws a {@link ConfigurationError} when the `zod` module this package
 * imports is zod 3 (it has no `toJSONSchema`), instead of failing later on
 * some missing property.
 */
export function requireZod4(zod: object): void {
  if (typeof (zod as { toJSONSchema?: unknown }).toJSONSchema === "function") return;
  throw new ConfigurationError(
    `${NEEDS_ZOD_4}. Install zod 4 in your project (npm i zod@${SUPPORTED_ZOD}); embabel-ts uses your copy of zod.`,
  );
}

/** True for a zod 3 schema (it has `_def` and `safeParse` but no zod 4 `_zod` internals). */
function isZod3Schema(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  return (
    "_def" in value &&
    !("_zod" in value) &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}

/**
 * Throws a {@link ConfigurationError} naming `what` when `schema` is a zod 3
 * schema (from zod 3 or `zod/v3`); zod 4 schemas pass.
 */
export function requireZod4Schema(schema: unknown, what: string): void {
  if (!isZod3Schema(schema)) return;
  throw new ConfigurationError(
    `${NEEDS_ZOD_4}: the schema of ${what} is a zod 3 schema. Build it with zod 4: import { z } from "zod" with zod@${SUPPORTED_ZOD} installed (not "zod/v3").`,
  );
}

/**
 * True for a zod 4 schema from another copy of zod than the one embabel-ts
 * imports (`instanceof` fails across copies); two copies also slow type
 * checking to a crawl, so it is worth a clear error.
 */
export function isForeignZod4Schema(value: unknown): boolean {
  return typeof value === "object" && value !== null && "_zod" in value;
}
