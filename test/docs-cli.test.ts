// docs/cli.md is the reference of the `embabel-ts` command: every command,
// flag, environment variable and exit status the built command's `--help`
// shows appears in it. Someone who adds a flag to src/cli/help-text.ts and not
// to docs/cli.md gets told exactly which one is missing, and where --help shows it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";

const reference = readFileSync(join(root, "docs/cli.md"), "utf8");

/** True when `word` occurs in `text` as a whole token (`--host` does not match inside `--host-name`). */
function mentions(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`).test(text);
}

/** Each `--flag`/`-f`, command, variable and exit status of `help`, with the help line that shows it. */
function helpItems(help: string): { kind: string; name: string; line: string }[] {
  const items = new Map<string, { kind: string; name: string; line: string }>();
  const add = (kind: string, name: string, line: string) => {
    if (!items.has(`${kind} ${name}`)) items.set(`${kind} ${name}`, { kind, name, line: line.trim() });
  };
  let exitSection = false;
  for (const line of help.split("\n")) {
    const command = /^ {2}embabel-ts ([a-z][\w-]*)/.exec(line);
    if (command?.[1]) add("command", command[1], line);
    for (const flag of line.matchAll(/(?<![\w-])(--?[a-z][a-z0-9-]*)/g)) add("flag", flag[1] as string, line);
    for (const variable of line.matchAll(/\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g)) {
      add("environment variable", variable[1] as string, line);
    }
    if (line.startsWith("Exit status")) exitSection = true;
    else if (line.trim() === "") exitSection = false;
    if (exitSection)
      for (const status of line.matchAll(/(?:^|[;:] )(\d) (?:when|for)/g))
        add("exit status", status[1] as string, line);
  }
  return [...items.values()];
}

/** Whether docs/cli.md documents `item`: a command as `embabel-ts <name>` or a `<name> …` table entry, an exit status in an "Exit status" sentence. */
function documented(item: { kind: string; name: string }): boolean {
  if (item.kind === "command") {
    return mentions(reference, `embabel-ts ${item.name}`) || reference.includes(`| \`${item.name}`);
  }
  if (item.kind === "exit status") {
    const sentence = /Exit status:[\s\S]*?\n\n/.exec(reference)?.[0] ?? "";
    return new RegExp(`(?:^|[:;] )${item.name} (?:when|for)`).test(sentence.replace(/\s+/g, " "));
  }
  return mentions(reference, item.name);
}

describe("helpItems", () => {
  it("finds commands, flags, variables and exit statuses, with their lines", () => {
    const help = [
      "Usage:",
      "  embabel-ts go <x> [--fast]   go",
      "  -q, --quiet-mode   KEEP_QUIET=1 does the same",
      "",
      "Exit status: 0 when done; 4 for a bad day.",
    ].join("\n");
    expect(helpItems(help).map(({ kind, name }) => `${kind} ${name}`)).toEqual([
      "command go",
      "flag --fast",
      "flag -q",
      "flag --quiet-mode",
      "environment variable KEEP_QUIET",
      "exit status 0",
      "exit status 4",
    ]);
  });
});

describe("docs/cli.md", () => {
  let help = "";
  beforeAll(async () => {
    ensureBuilt();
    const run = await cli(["--help"]);
    expect(run.code).toBe(0);
    help = run.stdout;
  }, 120_000);

  it("documents every command, flag, environment variable and exit status that --help shows", () => {
    const items = helpItems(help);
    expect(items.filter((item) => item.kind === "command").map((item) => item.name)).toEqual(
      expect.arrayContaining(["run", "list", "worker", "mcp-serve", "studio", "waiting", "respond"]),
    );
    expect(items.filter((item) => item.kind === "flag").map((item) => item.name)).toEqual(
      expect.arrayContaining(["--approve-all", "--deny-all", "--stateless", "--redis"]),
    );
    expect(items.filter((item) => item.kind === "exit status").map((item) => item.name)).toEqual([
      "0",
      "1",
      "2",
      "3",
    ]);
    const missing = items
      .filter((item) => !documented(item))
      .map((item) => `${item.kind} ${item.name} (--help: "${item.line}")`);
    expect(missing, `docs/cli.md does not mention:\n${missing.join("\n")}`).toEqual([]);
  });
});
