import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CapturedLogs, captureLogs } from "../../test/support/captured-logs.js";
import {
  copyFixtureSkills,
  type SkillsCopy,
  UNGIVEN_TOOL_WARNING,
} from "../../test/support/skill-fixtures.js";
import type { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { Skills } from "./skills.js";
import type { SkillsTool } from "./skills-tool.js";

let copy: SkillsCopy;
let facade: SkillsTool;
let logs: CapturedLogs;
const context = ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "loop-1" });

beforeEach(async () => {
  logs = captureLogs();
  copy = copyFixtureSkills();
  facade = (await Skills.fromDirectory(copy.dir, { maxReadBytes: 4096 })).asTool();
  expect(logs.lines).toEqual([UNGIVEN_TOOL_WARNING]);
});
afterEach(() => {
  logs.restore();
  copy.remove();
  // The fixture skills' one expected warning (release-notes allows a tool these tests do not give), and nothing else.
  expect(logs.lines.filter((line) => line !== UNGIVEN_TOOL_WARNING)).toEqual([]);
});

const readers = new Map<string, Tool>();
beforeEach(() => readers.clear());

/** Activates `skill` (once per test) and returns the read_skill_file tool it unfolded. */
async function readerAfterActivating(skill: string): Promise<Tool> {
  const known = readers.get(skill);
  if (known) return known;
  const input = JSON.stringify({ skill });
  await facade.call(input, context);
  const reader = facade.unfoldingFor({ input, context, definition: facade.definition })?.tools[0];
  if (!reader) throw new Error("no reader unfolded");
  readers.set(skill, reader);
  return reader;
}

async function read(skill: string, path: unknown) {
  const reader = await readerAfterActivating(skill);
  return reader.call(JSON.stringify({ skill, path }), context);
}

describe("read_skill_file", () => {
  it("is described as reading files of an activated skill, by skill and relative path", async () => {
    const reader = await readerAfterActivating("release-notes");
    expect(reader.definition.name).toBe("read_skill_file");
    expect(reader.definition.description).toMatch(
      /^Reads a text file from the folder of a skill you activated with 'skills'/,
    );
    expect(reader.definition.inputSchema.jsonSchema).toMatchObject({ required: ["skill", "path"] });
  });

  it("reads a file the skill's instructions refer to", async () => {
    const result = await read("release-notes", "references/categories.md");
    expect(result.kind).toBe("text");
    expect(result.content).toBe(
      readFileSync(join(copy.dir, "release-notes/references/categories.md"), "utf8"),
    );
    expect((await read("release-notes", "./assets/../references/style-guide.md")).content).toMatch(
      /^# Style guide/,
    );
  });

  it("refuses paths leading out of the folder with ../ and lists what may be read", async () => {
    const result = await read("release-notes", "../csv-audit/references/checks.md");
    expect(result.kind).toBe("error");
    expect(result.content).toBe(
      "Cannot read '../csv-audit/references/checks.md' from the skill 'release-notes': the path leads outside the skill's folder. Files you can read: assets/template.md, references/categories.md, references/style-guide.md, scripts/group_changes.py.",
    );
  });

  it("refuses absolute paths, even to a file inside the folder", async () => {
    const inside = join(copy.dir, "release-notes", "references", "categories.md");
    for (const path of [inside, copy.secret, "~/.ssh/id_rsa", "C:\\Windows\\win.ini"]) {
      const result = await read("release-notes", path);
      expect(result.kind).toBe("error");
      expect(result.content).toContain("absolute paths are not allowed");
    }
  });

  it("refuses a symbolic link leading outside the folder (made by the test), and never lists it", async () => {
    const result = await read("release-notes", "references/leak.md");
    expect(result.kind).toBe("error");
    expect(result.content).toContain("the path is a link leading outside the skill's folder");
    expect(result.content).not.toContain("TOP SECRET");
    expect(result.content).not.toMatch(/Files you can read: .*leak\.md/);
  });

  it("refuses a linked folder leading outside", async () => {
    const outside = join(copy.dir, "..", "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "notes.md"), "outside");
    symlinkSync(outside, join(copy.dir, "release-notes", "linked"));
    const result = await read("release-notes", "linked/notes.md");
    expect(result.content).toContain("the path is a link leading outside the skill's folder");
  });

  it("refuses binary files", async () => {
    const result = await read("csv-audit", "assets/badge.png");
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(
      /^'assets\/badge\.png' in the skill 'csv-audit' is a binary file; read_skill_file reads text files only\. Files you can read: assets\/sample\.csv/,
    );
  });

  it("refuses missing files, folders and empty paths", async () => {
    expect((await read("release-notes", "references/missing.md")).content).toContain(
      "no such file in the skill's folder",
    );
    expect((await read("release-notes", "references")).content).toContain("the path is a folder, not a file");
    expect((await read("release-notes", "")).content).toContain("the path is empty");
    expect((await read("release-notes", 42)).content).toContain("the path is empty");
  });

  it("refuses skills that are not active in this loop, and unknown ones", async () => {
    const reader = await readerAfterActivating("release-notes");
    const inactive = await reader.call('{"skill":"csv-audit","path":"references/checks.md"}', context);
    expect(inactive.kind).toBe("error");
    expect(inactive.content).toBe(
      "The skill 'csv-audit' is not active. To use it, first call 'skills' with {\"skill\": \"csv-audit\"}.",
    );
    const otherLoop = ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "loop-2" });
    expect(
      (await reader.call('{"skill":"release-notes","path":"assets/template.md"}', otherLoop)).content,
    ).toMatch(/^The skill 'release-notes' is not active/);
    expect((await reader.call('{"skill":"pdf","path":"a.md"}', context)).content).toBe(
      "There is no skill named 'pdf'. Active skills: release-notes.",
    );
  });

  it("cuts files longer than maxReadBytes, saying so", async () => {
    writeFileSync(join(copy.dir, "release-notes", "references", "long.md"), "é".repeat(5000));
    const result = await read("release-notes", "references/long.md");
    expect(result.content).toMatch(
      /^é+\n\n\[Truncated: only the first 4096 bytes of 'references\/long\.md' are shown\.\]$/,
    );
    expect(result.content.match(/é/g)?.length).toBe(2048);
  });
});
