import type { Metafile } from "esbuild";

/** The most the tools + agent program may weigh gzipped against the AI SDK's program (a guard; the target 1.0 is open). */
export const AGENT_PROGRAM_GUARD: number;

/** The package a bundled input belongs to (`ours` for this repository's files). */
export function packageOf(input: string): string;

/** Bundles `entry` into one minified file; resolves to its code and its metafile output (inputs, imports). */
export function bundleProgram(
  entry: string,
  external?: readonly string[],
): Promise<{ code: Uint8Array; meta: Metafile["outputs"][string] }>;

/** Bundles `entry`; resolves to its sizes, the bytes per package, and the Node built-ins it imports. */
export function bundleSize(
  entry: string,
  external?: readonly string[],
): Promise<{
  bytes: number;
  gzipped: number;
  byPackage: Record<string, number>;
  builtins: string[];
}>;
