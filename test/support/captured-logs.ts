import { type LogFields, Logger, type LoggerLevel } from "../../src/tool/logger.js";

/** What the library logged while {@link captureLogs} was in force, one `level: message` line each. */
export interface CapturedLogs {
  /** The records so far, oldest first, as `warn: <message>` (fields left out). */
  readonly lines: string[];
  /** The records' fields, in the same order as {@link CapturedLogs.lines}. */
  readonly fields: (LogFields | undefined)[];
  /** Puts the previous default logger back. */
  restore(): void;
}

/**
 * Makes the library's default logger (the source-tree one, for tests under src/)
 * record instead of writing to stderr, so warnings a test triggers on purpose
 * can be asserted and do not flood the test output. Call `restore()` after the test.
 */
export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const fields: (LogFields | undefined)[] = [];
  const record =
    (level: LoggerLevel) =>
    (message: string, details?: LogFields): void => {
      lines.push(`${level}: ${message}`);
      fields.push(details);
    };
  const previous = Logger.setDefault({
    debug: record("debug"),
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
  });
  return { lines, fields, restore: () => Logger.setDefault(previous) };
}
