import { AmbientProcess } from "./ambient-process.js";
import { terminalSafe } from "./terminal-safe.js";

/** How much a {@link Logger} is asked to record, least to most severe. */
export type LoggerLevel = "debug" | "info" | "warn" | "error";

/** Structured details of a log record (names, counts, ids); never secrets. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Where the library's warnings and diagnostics go. One logger serves the whole
 * library: pass yours as `AgentPlatform.create({ logger })` (processes of that
 * platform use it), or set the default with `Logger.setDefault`.
 * Adapters for pino, winston or `console` are one line each.
 */
export interface Logger {
  /** Writes a diagnostic, for those who debug. */
  debug(message: string, fields?: LogFields): void;
  /** Writes a note about normal operation. */
  info(message: string, fields?: LogFields): void;
  /** Writes something that went wrong and was handled. */
  warn(message: string, fields?: LogFields): void;
  /** Writes a failure. */
  error(message: string, fields?: LogFields): void;
}

const levels: Readonly<Record<LoggerLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Options of {@link Logger.stderr}. */
export interface StderrLoggerOptions {
  /** The least severe level written. @default "warn" ("debug" when NODE_DEBUG names embabel-ts) */
  readonly level?: LoggerLevel;
  /** Writes one finished line (newline included). @default process.stderr.write */
  readonly write?: (line: string) => void;
}

function debugRequested(): boolean {
  const flags = typeof process === "undefined" ? undefined : process.env?.NODE_DEBUG;
  return flags !== undefined && /(^|,)\s*embabel-ts\s*(,|$)/i.test(flags);
}

function formatFields(fields: LogFields | undefined): string {
  if (!fields) return "";
  const parts: string[] = [];
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    parts.push(`${key}=${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
  }
  return parts.length > 0 ? ` ${parts.join(" ")}` : "";
}

function stderrLogger(options: StderrLoggerOptions = {}): Logger {
  const threshold = levels[options.level ?? (debugRequested() ? "debug" : "warn")];
  const write =
    options.write ??
    ((line: string) => {
      if (typeof process !== "undefined" && process.stderr) process.stderr.write(line);
      else console.error(line.trimEnd());
    });
  const at =
    (level: LoggerLevel) =>
    (message: string, fields?: LogFields): void => {
      if (levels[level] < threshold) return;
      // Warnings carry text from models, tools and MCP servers: never a raw escape sequence or a key.
      write(`[embabel-ts] ${level}: ${terminalSafe(`${message}${formatFields(fields)}`)}\n`);
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

const noop = (): void => {};
const silent: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

let fallback: Logger = stderrLogger();

/** Factories and the ambient logger. */
export const Logger = {
  /** Writes `[embabel-ts] <level>: <message> key=value…` lines to stderr, from `level` up, made terminal-safe (no control or escape sequences, credentials redacted). */
  stderr: stderrLogger,
  /** Records nothing. */
  silent,
  /**
   * The logger in force here: the current agent process's platform logger
   * when called inside a process, else the default.
   */
  current(): Logger {
    return AmbientProcess.current()?.logger ?? fallback;
  },
  /** The logger used outside any process (and by processes of platforms without one). */
  get default(): Logger {
    return fallback;
  },
  /** Replaces the default logger; returns the previous one (to restore it). */
  setDefault(logger: Logger): Logger {
    const previous = fallback;
    fallback = logger;
    return previous;
  },
};
