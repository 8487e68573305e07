import { extname } from "node:path";

/** The program and leading arguments that run a script file. */
export interface Interpreter {
  readonly command: string;
  readonly args: readonly string[];
}

/** Interpreters by file extension (used when a script has no shebang line). */
const BY_EXTENSION: Readonly<Record<string, Interpreter>> = {
  ".py": { command: "python3", args: [] },
  ".sh": { command: "sh", args: [] },
  ".bash": { command: "bash", args: [] },
  ".js": { command: process.execPath, args: [] },
  ".mjs": { command: process.execPath, args: [] },
  ".cjs": { command: process.execPath, args: [] },
  ".rb": { command: "ruby", args: [] },
  ".pl": { command: "perl", args: [] },
};

/** The interpreter a `#!` line names (`#!/usr/bin/env python3` → `python3`; `#!/bin/bash -e` → `/bin/bash -e`). */
function fromShebang(firstLine: string): Interpreter | undefined {
  if (!firstLine.startsWith("#!")) return undefined;
  let words = firstLine.slice(2).trim().split(/\s+/).filter(Boolean);
  if (words[0] !== undefined && /(^|\/)env$/.test(words[0])) {
    words = words.slice(1);
    if (words[0] === "-S") words = words.slice(1);
  }
  const [command, ...args] = words;
  if (command === undefined) return undefined;
  return { command: command === "node" ? process.execPath : command, args };
}

/**
 * How to run the script at `path` without a shell: the interpreter its `#!`
 * line names, else the one for its extension (`.py` → python3, `.sh` → sh,
 * `.js`/`.mjs`/`.cjs` → this Node, `.rb` → ruby, `.pl` → perl); `undefined`
 * when neither says.
 */
export function interpreterFor(path: string, head: string): Interpreter | undefined {
  const firstLine = head.split(/\r?\n/, 1)[0] ?? "";
  return fromShebang(firstLine) ?? BY_EXTENSION[extname(path).toLowerCase()];
}
