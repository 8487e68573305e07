import { ConfigurationError } from "../errors/configuration-error.js";
import { MIN_MEMORY_BYTES } from "./load-quickjs.js";
import type { ProgramLimits } from "./run-program.js";

/** The limits of a code-mode tool's programs; each one hit ends the program with an in-band error. */
export interface CodeModeOptions {
  /** Wall-clock time of one program, inner tool calls included. @default 10000 */
  readonly timeoutMs?: number;
  /** The whole memory of a program's sandbox (its own WebAssembly memory; at least 16 MiB). @default 67108864 (64 MiB) */
  readonly memoryBytes?: number;
  /** Inner tool calls one program may make. @default 100 */
  readonly maxToolCalls?: number;
  /** Characters of output (console lines and the returned value) sent back to the model. @default 20000 */
  readonly maxOutputChars?: number;
  /** Characters of source code accepted. @default 50000 */
  readonly maxCodeChars?: number;
}

/** The options with defaults filled in, checked. */
export interface CodeModeSettings extends ProgramLimits {
  readonly maxCodeChars: number;
}

/** `options` with defaults, or a {@link ConfigurationError} naming the bad one. */
export function codeModeSettings(name: string, options: CodeModeOptions = {}): CodeModeSettings {
  const settings: CodeModeSettings = {
    timeoutMs: options.timeoutMs ?? 10_000,
    memoryBytes: options.memoryBytes ?? 64 * 1024 * 1024,
    maxToolCalls: options.maxToolCalls ?? 100,
    maxOutputChars: options.maxOutputChars ?? 20_000,
    maxCodeChars: options.maxCodeChars ?? 50_000,
  };
  for (const [key, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new ConfigurationError(
        `Code-mode tool '${name}': ${key} must be a positive whole number, got ${value}.`,
      );
  }
  if (settings.memoryBytes < MIN_MEMORY_BYTES)
    throw new ConfigurationError(
      `Code-mode tool '${name}': memoryBytes must be at least ${MIN_MEMORY_BYTES} (16 MiB, the sandbox's smallest memory), got ${settings.memoryBytes}.`,
    );
  return settings;
}
