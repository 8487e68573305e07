import { redactSecrets } from "./redact-secrets.js";

// Escape sequences: CSI (cursor moves, colours), OSC (titles, clipboard writes, links) up to
// BEL or ST, DCS/SOS/PM/APC strings, two-character escapes, and their 8-bit (C1) forms.
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: this is what it removes
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[PX^_][^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?|\u009b[0-?]*[ -/]*[@-~]?|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;
// Every other C0 and C1 control and DEL, except tab and newline.
// biome-ignore lint/suspicious/noControlCharactersInRegex: this is what it removes
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` safe to print on a terminal: escape sequences (OSC 52 clipboard
 * writes, OSC 0 titles, cursor moves, colours) removed whole, then every
 * other C0/C1 control character except tab and newline; and credentials
 * redacted (`redactSecrets`). For text from models, tools and MCP servers,
 * wherever it is printed: the CLI's terminal and the default logger.
 */
export function terminalSafe(text: string): string {
  return redactSecrets(text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, ""));
}
