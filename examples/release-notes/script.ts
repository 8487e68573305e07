import type { ScriptedStepInit } from "../../src/testing/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { userText, withRecordedUsage } from "../script-helpers.js";
import type { ReleaseNotes } from "./domain.js";

interface Change {
  readonly type: string;
  readonly breaking: boolean;
  readonly text: string;
}

/** The changes of a request: `type: text` items separated by semicolons (after "Changes:" when present). */
export function changesFrom(request: string): Change[] {
  const list = request.split(/changes:/i).pop() ?? "";
  return list
    .split(";")
    .map((item) => /^\s*(\w+)(\([^)]*\))?(!)?:\s*(.+?)\s*\.?\s*$/.exec(item))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({
      type: (match[1] ?? "").toLowerCase(),
      breaking: match[3] === "!",
      text: match[4] ?? "",
    }));
}

/** The version a request names ("version 2.3.1"), or 0.1.0. */
export function currentVersionFrom(request: string): string {
  return /\bv?(\d+\.\d+\.\d+)\b/.exec(request)?.[1] ?? "0.1.0";
}

/** The next version, by the semver-bump skill's rules. */
export function nextVersion(current: string, changes: readonly Change[]): string {
  const [major = 0, minor = 0, patch = 0] = current.split(".").map(Number);
  if (changes.some((change) => change.breaking)) {
    return major > 0 ? `${major + 1}.0.0` : `${major}.${minor + 1}.0`;
  }
  if (changes.some((change) => change.type === "feat")) return `${major}.${minor + 1}.0`;
  if (changes.some((change) => change.type === "fix" || change.type === "perf")) {
    return `${major}.${minor}.${patch + 1}`;
  }
  return current;
}

/** "add an export button" → "Adds an export button" (the voice reference's present tense). */
function entry(text: string): string {
  const [verb = "", ...rest] = text.split(" ");
  const third = /(s|sh|ch|x|z)$/.test(verb) ? `${verb}es` : `${verb}s`;
  return `- ${third.charAt(0).toUpperCase()}${third.slice(1)}${rest.length > 0 ? ` ${rest.join(" ")}` : ""}`;
}

/** The notes in the changelog-style skill's shape. */
export function notesFor(version: string, changes: readonly Change[]): string {
  const sections: [string, Change[]][] = [
    ["Breaking", changes.filter((change) => change.breaking)],
    ["Added", changes.filter((change) => !change.breaking && change.type === "feat")],
    [
      "Fixed",
      changes.filter((change) => !change.breaking && (change.type === "fix" || change.type === "perf")),
    ],
  ];
  const body = sections
    .filter(([, items]) => items.length > 0)
    .map(([title, items]) => `### ${title}\n${items.map((item) => entry(item.text)).join("\n")}`);
  return [`## ${version}`, ...body].join("\n\n");
}

/**
 * The recorded run: activate the style skill, read the voice reference it
 * points to, activate the versioning skill, then answer.
 */
export function releaseNotesScript(): ScriptedStepInit[] {
  const steps: ScriptedStepInit[] = [
    ScriptedModel.toolCall("skills", { skill: "changelog-style" }),
    ScriptedModel.toolCall("read_skill_file", { skill: "changelog-style", path: "references/voice.md" }),
    ScriptedModel.toolCall("skills", { skill: "semver-bump" }),
    (request) => {
      const text = userText(request).split("Request:").pop() ?? "";
      const changes = changesFrom(text);
      const version = nextVersion(currentVersionFrom(text), changes);
      const notes: ReleaseNotes = { version, notes: notesFor(version, changes) };
      return ScriptedModel.text(JSON.stringify(notes));
    },
  ];
  return steps.map(withRecordedUsage);
}
