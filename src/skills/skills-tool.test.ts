import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CapturedLogs, captureLogs } from "../../test/support/captured-logs.js";
import {
  copyFixtureSkills,
  type SkillsCopy,
  UNGIVEN_TOOL_WARNING,
} from "../../test/support/skill-fixtures.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { Unfolding } from "../tool/unfolding.js";
import { Skill } from "./skill.js";
import { Skills } from "./skills.js";
import type { SkillsTool } from "./skills-tool.js";

let copy: SkillsCopy;
let logs: CapturedLogs;
beforeEach(() => {
  logs = captureLogs();
  copy = copyFixtureSkills();
});
afterEach(() => {
  logs.restore();
  copy.remove();
  // The fixture skills' one expected warning (release-notes allows a tool these tests do not give), and nothing else.
  expect(logs.lines.filter((line) => line !== UNGIVEN_TOOL_WARNING)).toEqual([]);
});

const loop = (id: string) => ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: id });

function bodyOf(skill: string): string {
  return (
    readFileSync(join(copy.dir, skill, "SKILL.md"), "utf8")
      .split("\n---\n")[1]
      ?.trim() ?? ""
  );
}

async function activate(facade: SkillsTool, skill: string, context = loop("loop-1")) {
  const input = JSON.stringify({ skill });
  const result = await facade.call(input, context);
  const unfolding = Unfolding.ofCall(facade, { input, context, definition: facade.definition }, result);
  return { result, unfolding, names: unfolding?.tools.map((tool) => tool.definition.name) };
}

describe("SkillsTool (skills.asTool())", () => {
  it("is one tool whose description lists every skill's name and description", async () => {
    const facade = (await Skills.fromDirectory(copy.dir)).asTool();
    expect(facade.definition.name).toBe("skills");
    expect(logs.lines).toEqual([UNGIVEN_TOOL_WARNING]); // list_merged_changes was not given
    const lines = facade.definition.description.split("\n");
    expect(lines[0]).toMatch(/^Agent Skills: .*call this tool with \{"skill": "<name>"\}/);
    expect(lines.slice(1)).toEqual([
      "Skills:",
      expect.stringMatching(/^- csv-audit: Checks a CSV file for structural problems/),
      expect.stringMatching(/^- incident-review: Writes a blameless post-incident review/),
      expect.stringMatching(/^- release-notes: Turns a list of merged changes/),
    ]);
    expect(facade.definition.inputSchema.jsonSchema).toMatchObject({
      type: "object",
      properties: { skill: { type: "string" } },
      required: ["skill"],
    });
  });

  it("answers an activation with the skill's body and lists its files, then unfolds read_skill_file", async () => {
    const facade = (await Skills.fromDirectory(copy.dir)).asTool();
    const { result, unfolding, names } = await activate(facade, "incident-review");
    expect(result.kind).toBe("text");
    expect(result.content.startsWith(bodyOf("incident-review"))).toBe(true);
    expect(result.content).toContain(
      'Files of this skill (read with read_skill_file {"skill": "incident-review", "path": "<file>"}): assets/review-template.md, references/timeline.md.',
    );
    expect(names).toEqual(["read_skill_file"]);
    expect(unfolding?.guide).toBe(facade);
    expect(unfolding?.exclusive).toBe(false);
  });

  it("lists binary files apart and says scripts cannot run when runScripts is off", async () => {
    const facade = (await Skills.fromDirectory(copy.dir)).asTool();
    const { result, names } = await activate(facade, "csv-audit");
    expect(result.content).toContain("assets/sample.csv, references/checks.md, scripts/summarize.mjs.");
    expect(result.content).toContain("Binary files (not readable as text): assets/badge.png.");
    expect(result.content).toContain("Its scripts cannot be run here");
    expect(names).toEqual(["read_skill_file"]);
  });

  it("offers run_skill_script for a skill with scripts when runScripts is on", async () => {
    const facade = (await Skills.fromDirectory(copy.dir, { runScripts: true })).asTool();
    const { result, names } = await activate(facade, "csv-audit");
    expect(result.content).toContain('Run its scripts with run_skill_script {"skill": "csv-audit"');
    expect(names).toEqual(["read_skill_file", "run_skill_script"]);
    expect((await activate(facade, "incident-review")).names).toEqual(["read_skill_file"]);
  });

  it("answers a repeat in the same loop with ALREADY LOADED, offering the same tools again (a no-op where offered)", async () => {
    const facade = (await Skills.fromDirectory(copy.dir)).asTool();
    await activate(facade, "incident-review");
    const again = await activate(facade, "incident-review");
    expect(again.result.content).toMatch(
      /^ALREADY LOADED\. The body of 'incident-review' was returned earlier in this turn — read it from your conversation history above\. Do not call this tool again\. Follow the skill's instructions now/,
    );
    expect(again.names).toEqual(["read_skill_file"]);
    expect(again.unfolding?.tools[0]).toBe((await activate(facade, "incident-review")).unfolding?.tools[0]);
    const otherLoop = await activate(facade, "incident-review", loop("loop-2"));
    expect(otherLoop.result.content.startsWith(bodyOf("incident-review"))).toBe(true);
    expect(otherLoop.names).toEqual(["read_skill_file"]);
  });

  it("answers an unknown or missing skill name in-band with the list of skills", async () => {
    const facade = (await Skills.fromDirectory(copy.dir)).asTool();
    const unknown = await activate(facade, "pdf-forms");
    expect(unknown.result.kind).toBe("error");
    expect(unknown.result.content).toBe(
      "There is no skill named 'pdf-forms'. Skills: csv-audit, incident-review, release-notes.",
    );
    expect(unknown.unfolding).toBeUndefined();
    const missing = await facade.call("{}", loop("loop-1"));
    expect(missing.content).toMatch(/^Name the skill to activate: \{"skill": "<name>"\}, one of: csv-audit/);
  });

  it("lets a failed activation (body gone) be retried", async () => {
    const facade = (await Skills.fromDirectory(copy.dir)).asTool();
    const file = join(copy.dir, "incident-review", "SKILL.md");
    const text = readFileSync(file, "utf8");
    const { rmSync, writeFileSync } = await import("node:fs");
    rmSync(file);
    await expect(facade.call('{"skill":"incident-review"}', loop("loop-1"))).rejects.toThrow(/ENOENT/);
    writeFileSync(file, text);
    expect((await activate(facade, "incident-review")).result.content.startsWith("# Incident review")).toBe(
      true,
    );
  });

  it("offers a skill's allowed tools while it is active, and only those given with withTools", async () => {
    const listChanges = Tool.create("list_merged_changes", "Lists merged changes", async () =>
      ToolResult.text("feat: dark mode\nfix: crash on save"),
    );
    const unrelated = Tool.create("delete_repository", "Deletes the repository", async () =>
      ToolResult.text("gone"),
    );
    const facade = (await Skills.fromDirectory(copy.dir)).withTools(listChanges, unrelated).asTool();
    const notes = await activate(facade, "release-notes");
    expect(notes.names).toEqual(["read_skill_file", "list_merged_changes"]);
    expect(notes.result.content).toContain("Tools this skill uses, now available: list_merged_changes.");
    expect((await activate(facade, "csv-audit")).names).toEqual(["read_skill_file"]);
    expect(logs.lines).toEqual([]); // every allowed tool was given: no warning
  });

  it("activates skills made in code (no files, so no read_skill_file)", async () => {
    const facade = Skills.of(
      Skill.of({ name: "haiku", description: "Writes haiku.", instructions: () => "Five, seven, five." }),
    ).asTool({ name: "writing_skills" });
    expect(facade.definition.name).toBe("writing_skills");
    const { result, unfolding } = await activate(facade, "haiku");
    expect(result.content).toBe("Five, seven, five.");
    expect(unfolding?.tools ?? []).toEqual([]);
  });
});

describe("SkillsTool as a progressive tool", () => {
  it("names the tools activations may append as its inner tools (tool trees show them)", async () => {
    const listChanges = Tool.create("list_merged_changes", "Lists merged changes", async () =>
      ToolResult.text(""),
    );
    const facade = (await Skills.fromDirectory(copy.dir, { runScripts: true }))
      .withTools(listChanges)
      .asTool();
    expect(facade.innerTools.map((tool) => tool.definition.name)).toEqual([
      "read_skill_file",
      "run_skill_script",
      "list_merged_changes",
    ]);
    expect(Tool.formatToolTree("tools", [facade])).toBe(
      "tools\n└── skills (3 inner tools)\n    ├── read_skill_file\n    ├── run_skill_script\n    └── list_merged_changes",
    );
  });

  it("reads a SKILL.md that starts with a byte order mark, or uses CRLF line ends", async () => {
    const file = join(copy.dir, "incident-review", "SKILL.md");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, `\uFEFF${readFileSync(file, "utf8").replaceAll("\n", "\r\n")}`);
    const skills = await Skills.fromDirectory(copy.dir);
    expect(skills.get("incident-review")?.description).toMatch(/^Writes a blameless/);
    expect(await skills.get("incident-review")?.instructions()).toMatch(/^# Incident review\r\n/);
  });
});
