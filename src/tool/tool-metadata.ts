import { ConfigurationError } from "../errors/configuration-error.js";
import type { ToolApproval } from "./tool-approval.js";

/** How the tool loop treats a tool; never sent to the LLM. */
export interface ToolMetadata {
  /** The tool's result is the final answer: no further LLM call. @default false */
  readonly returnDirect: boolean;
  /** Provider-specific settings passed through with the definition. @default {} */
  readonly providerMetadata: Readonly<Record<string, unknown>>;
  /** A call running longer is answered in-band as timed out and its signal aborted; wins over the loop's `toolTimeoutMs`. @default undefined (the loop's setting) */
  readonly toolTimeoutMs?: number;
  /** The most characters of one result of this tool sent to the model (the rest is cut with a note); wins over the loop's `maxToolResultChars`. @default undefined (the loop's setting, 100000) */
  readonly maxResultChars?: number;
  /** Inside an agent process, a call waits for a person's approval before it runs (`Tool.requireApproval`). @default undefined (runs at once) */
  readonly approval?: ToolApproval;
  /**
   * The tool checks its own arguments: the loop passes the model's raw text
   * without parsing or schema validation (only the nesting-depth limit
   * applies), so the tool's own in-band answers reach the model (the
   * built-in `progress`, `communicate` and `blackboard_*` tools). Ignored for
   * a tool needing approval: the gate validates every such call. @default false
   */
  readonly lenientArguments?: boolean;
}

/** Settings accepted by {@link ToolMetadata.create}. */
export interface ToolMetadataInit {
  /** @default false */
  readonly returnDirect?: boolean;
  /** @default {} */
  readonly providerMetadata?: Record<string, unknown>;
  /** A positive number of milliseconds. @default undefined (the loop's setting) */
  readonly toolTimeoutMs?: number;
  /** A positive integer (or `Infinity`, no cap). @default undefined (the loop's setting, 100000) */
  readonly maxResultChars?: number;
  /** See {@link ToolMetadata.lenientArguments}. @default false */
  readonly lenientArguments?: boolean;
}

const DEFAULT: ToolMetadata = Object.freeze({ returnDirect: false, providerMetadata: Object.freeze({}) });

/** Throws a {@link ConfigurationError} unless `value` is a positive finite number of milliseconds. */
export function checkTimeoutMs(owner: string, value: number): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(
      `${owner} toolTimeoutMs must be a positive number of milliseconds, got ${value}.`,
    );
  }
}

/** Factories for {@link ToolMetadata}. */
export const ToolMetadata = {
  /** `returnDirect: false`, no provider metadata. */
  DEFAULT,
  /**
   * Metadata with the given settings; a `toolTimeoutMs` that is not a
   * positive number is a `ConfigurationError`. The chapter's positional form
   * works too: `ToolMetadata.create(true)` (returnDirect) and
   * `ToolMetadata.create(true, { provider: "x" })` (provider metadata).
   */
  create(
    options: ToolMetadataInit | boolean = {},
    providerMetadata?: Readonly<Record<string, unknown>>,
  ): ToolMetadata {
    if (typeof options === "boolean") {
      return ToolMetadata.create({
        returnDirect: options,
        ...(providerMetadata ? { providerMetadata } : {}),
      });
    }
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
      throw new ConfigurationError(
        `ToolMetadata.create takes returnDirect (true/false) or an options object { returnDirect, providerMetadata, toolTimeoutMs }, got ${JSON.stringify(options)}.`,
      );
    }
    if (providerMetadata !== undefined) {
      throw new ConfigurationError(
        "ToolMetadata.create: provider metadata as a second argument goes with the positional returnDirect flag; with an options object pass { providerMetadata }.",
      );
    }
    if (options.returnDirect !== undefined && typeof options.returnDirect !== "boolean") {
      throw new ConfigurationError("ToolMetadata.create: returnDirect must be true or false.");
    }
    const { maxResultChars } = options;
    if (
      !options.returnDirect &&
      !options.providerMetadata &&
      options.toolTimeoutMs === undefined &&
      maxResultChars === undefined &&
      !options.lenientArguments
    )
      return DEFAULT;
    if (options.toolTimeoutMs !== undefined) checkTimeoutMs("ToolMetadata", options.toolTimeoutMs);
    if (
      maxResultChars !== undefined &&
      maxResultChars !== Number.POSITIVE_INFINITY &&
      (!Number.isInteger(maxResultChars) || maxResultChars < 1)
    ) {
      throw new ConfigurationError(
        `ToolMetadata maxResultChars must be a positive integer (or Infinity for no cap), got ${maxResultChars}.`,
      );
    }
    return Object.freeze({
      returnDirect: options.returnDirect ?? false,
      providerMetadata: Object.freeze({ ...(options.providerMetadata ?? {}) }),
      ...(options.toolTimeoutMs !== undefined ? { toolTimeoutMs: options.toolTimeoutMs } : {}),
      ...(maxResultChars !== undefined ? { maxResultChars } : {}),
      ...(options.lenientArguments ? { lenientArguments: true } : {}),
    });
  },
  /** True for metadata objects (as opposed to input schemas or handlers). */
  isToolMetadata(value: unknown): value is ToolMetadata {
    return (
      typeof value === "object" &&
      value !== null &&
      typeof (value as ToolMetadata).returnDirect === "boolean" &&
      typeof (value as ToolMetadata).providerMetadata === "object"
    );
  },
};
