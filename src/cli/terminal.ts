import { terminalSafe } from "../tool/terminal-safe.js";

/** Where the CLI writes, and whether it may use colour. */
export interface Terminal {
  /** Writes one line to standard output. */
  out(line?: string): void;
  /** Writes one line to standard error. */
  err(line?: string): void;
  /** Styling helpers; identity functions when colour is off. */
  readonly style: TerminalStyle;
}

/** ANSI styling that collapses to plain text when colour is off. */
export interface TerminalStyle {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const plain = (text: string): string => text;

const PLAIN_STYLE: TerminalStyle = {
  bold: plain,
  dim: plain,
  green: plain,
  red: plain,
  yellow: plain,
  cyan: plain,
  magenta: plain,
};

function ansi(open: number, close: number): (text: string) => string {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

const ANSI_STYLE: TerminalStyle = {
  bold: ansi(1, 22),
  dim: ansi(2, 22),
  green: ansi(32, 39),
  red: ansi(31, 39),
  yellow: ansi(33, 39),
  cyan: ansi(36, 39),
  magenta: ansi(35, 39),
};

/** Colour on a TTY unless `NO_COLOR` is set; `FORCE_COLOR` (not `0`) turns it on anywhere. */
export function colourEnabled(
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean | undefined,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0";
  return isTTY === true;
}

/** The colour codes {@link ANSI_STYLE} writes: the only escape sequences a line keeps. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the CLI's own colour codes
const OWN_STYLE = /(\u001b\[(?:1|2|22|31|32|33|35|36|39)m)/;

/** Lines without these (most of them) need no work. */
const MAY_NEED_CLEANING =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: controls are what it looks for
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|:\/\/|sk-|bearer|authorization|api[-_]?key/i;

/** `line` made {@link terminalSafe}, keeping the CLI's own colour codes. */
function safeLine(line: string): string {
  if (!MAY_NEED_CLEANING.test(line)) return line;
  return line
    .split(OWN_STYLE)
    .map((part, index) => (index % 2 === 1 ? part : terminalSafe(part)))
    .join("");
}

/**
 * A terminal over two writable streams. Every line is made safe before it is
 * written ({@link terminalSafe}: no control or escape sequences but the CLI's
 * own colours, credentials redacted), whoever produced its text.
 */
export function streamTerminal(
  stdout: NodeJS.WritableStream & { isTTY?: boolean },
  stderr: NodeJS.WritableStream,
  env: Readonly<Record<string, string | undefined>>,
): Terminal {
  return {
    out: (line = "") => void stdout.write(`${safeLine(line)}\n`),
    err: (line = "") => void stderr.write(`${safeLine(line)}\n`),
    style: colourEnabled(env, stdout.isTTY) ? ANSI_STYLE : PLAIN_STYLE,
  };
}

/** A terminal writing every line (output and errors) to `write`, with colour or without, each line made safe as in {@link streamTerminal}. */
export function lineTerminal(write: (line: string) => void, colour: boolean): Terminal {
  return {
    out: (line = "") => write(safeLine(line)),
    err: (line = "") => write(safeLine(line)),
    style: colour ? ANSI_STYLE : PLAIN_STYLE,
  };
}

/** A terminal that records lines in memory, without colour (for tests). */
export function memoryTerminal(): Terminal & { readonly stdout: string[]; readonly stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (line = "") => void stdout.push(line),
    err: (line = "") => void stderr.push(line),
    style: PLAIN_STYLE,
  };
}

/** Shortens `text` to one line of at most `max` characters. */
export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Indents every line of `text` by `prefix`. */
export function indent(text: string, prefix = "  "): string {
  return text
    .split("\n")
    .map((line) => (line.length > 0 ? prefix + line : line))
    .join("\n");
}

/** A terminal whose standard output is silent (errors still show): `--json` writes its lines to the real one. */
export function jsonOnlyTerminal(terminal: Terminal): Terminal {
  return { out: () => {}, err: (line) => terminal.err(line), style: PLAIN_STYLE };
}
