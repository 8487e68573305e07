import { mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyFixtureSkills, FIXTURE_SKILLS, type SkillsCopy } from "../../test/support/skill-fixtures.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { Logger, type LoggerLevel } from "../tool/logger.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { Skill } from "./skill.js";
import { Skills } from "./skills.js";

let copy: SkillsCopy;
beforeEach(() => {
  copy = copyFixtureSkills();
});
afterEach(() => copy.remove());

/** Rewrites the front matter of a copied skill's SKILL.md (the body stays). */
function writeFrontMatter(skill: string, frontMatter: string): string {
  const file = join(copy.dir, skill, "SKILL.md");
  const body = readFileSync(file, "utf8")
    .split(/\n---\n/)
    .slice(1)
    .join("\n---\n");
  writeFileSync(file, `---\n${frontMatter}\n---\n${body}`);
  return file;
}

async function loadError(dir = copy.dir): Promise<ConfigurationError> {
  const error = await Skills.fromDirectory(dir).catch((caught: unknown) => caught);
  expect(ConfigurationError.isInstance(error)).toBe(true);
  return error as ConfigurationError;
}

describe("Skills.fromDirectory", () => {
  it("finds every subfolder with a SKILL.md and reads its front matter", async () => {
    const skills = await Skills.fromDirectory(FIXTURE_SKILLS);
    expect(skills.names).toEqual(["csv-audit", "incident-review", "release-notes"]);
    const notes = skills.get("release-notes");
    expect(notes?.description).toMatch(/^Turns a list of merged changes/);
    expect(notes?.license).toBe("Apache-2.0");
    expect(notes?.metadata).toEqual({ author: "embabel-ts fixtures", version: "1.2" });
    expect(notes?.allowedTools).toEqual(["list_merged_changes"]);
    expect(skills.get("csv-audit")?.compatibility).toBe("The summary script needs Node.js 20 or later.");
  });

  it("reads the body only when asked, as it is on disk then", async () => {
    const skills = await Skills.fromDirectory(copy.dir);
    const file = join(copy.dir, "incident-review", "SKILL.md");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace("# Incident review", "# Incident review (edited after load)"),
    );
    expect(await skills.get("incident-review")?.instructions()).toMatch(
      /^# Incident review \(edited after load\)/,
    );
  });

  it("does not read past the front matter while loading (a 1 GiB body, too big to read as a string, loads at once)", async () => {
    const file = join(copy.dir, "incident-review", "SKILL.md");
    writeFileSync(file, `${readFileSync(file, "utf8").split("\n---\n")[0]}\n---\n# Body\n`);
    truncateSync(file, 2 ** 30); // sparse: no disk used; a whole-file read would fail (ERR_STRING_TOO_LONG)
    const started = performance.now();
    const skills = await Skills.fromDirectory(copy.dir);
    expect(skills.get("incident-review")?.description).toMatch(/^Writes a blameless/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("takes a folder that is itself a skill", async () => {
    const skills = await Skills.fromDirectory(join(FIXTURE_SKILLS, "csv-audit"));
    expect(skills.names).toEqual(["csv-audit"]);
  });

  it("ignores subfolders without a SKILL.md and hidden folders", async () => {
    mkdirSync(join(copy.dir, "notes"));
    writeFileSync(join(copy.dir, "notes", "README.md"), "not a skill");
    mkdirSync(join(copy.dir, ".git"));
    writeFileSync(join(copy.dir, ".git", "SKILL.md"), "---\nname: git\n---\n");
    expect((await Skills.fromDirectory(copy.dir)).names).toEqual([
      "csv-audit",
      "incident-review",
      "release-notes",
    ]);
  });

  it("refuses a folder with no skills, and one that does not exist", async () => {
    const empty = join(copy.dir, "release-notes", "references");
    expect((await loadError(empty)).message).toMatch(
      /^No skills in .*references: no subfolder holds a SKILL\.md/,
    );
    expect((await loadError(join(copy.dir, "missing"))).message).toMatch(/^Cannot read the skills folder/);
  });
});

describe("Skills.fromDirectory validation", () => {
  it("collects every problem of every skill into one error naming file and field", async () => {
    const notes = writeFrontMatter(
      "release-notes",
      [
        "name: Release_Notes",
        "description: Writes <b>release</b> notes.",
        "owner: platform-team",
        "metadata:",
        "  version: 2",
        "allowed-tools: 7",
      ].join("\n"),
    );
    const review = writeFrontMatter(
      "incident-review",
      `name: incident-review\ndescription: ${"x".repeat(1025)}`,
    );
    const message = (await loadError()).message;
    expect(message).toMatch(/^Invalid skills \(6 problems\):/);
    expect(message).toContain(`${notes}: owner: unknown field; allowed: name, description, license`);
    expect(message).toContain(
      `${notes}: name: 'Release_Notes' may hold only lowercase letters, digits and single hyphens`,
    );
    expect(message).toContain(`${notes}: description: must not contain angle brackets`);
    expect(message).toContain(`${notes}: metadata.version: must be a string (quote it: version: "2")`);
    expect(message).toContain(`${notes}: allowed-tools: must be a space-separated string of tool names`);
    expect(message).toContain(`${review}: description: is 1025 characters; at most 1024 are allowed`);
  });

  it("requires the name to equal the folder's, and to be at most 64 characters", async () => {
    const file = writeFrontMatter("csv-audit", "name: csv-check\ndescription: Checks CSV files.");
    expect((await loadError()).message).toContain(
      `${file}: name: 'csv-check' must equal the skill's folder name 'csv-audit'`,
    );
    writeFrontMatter("csv-audit", `name: ${"a".repeat(65)}\ndescription: Checks CSV files.`);
    expect((await loadError()).message).toContain("name: is 65 characters; at most 64 are allowed");
  });

  it("refuses double and edge hyphens", async () => {
    for (const name of ["csv--audit", "-csv-audit", "csv-audit-"]) {
      writeFrontMatter("csv-audit", `name: "${name}"\ndescription: Checks CSV files.`);
      expect((await loadError()).message).toContain(`name: '${name}' may hold only lowercase letters`);
    }
  });

  it("requires name and description, and a compatibility of at most 500 characters", async () => {
    const file = writeFrontMatter("csv-audit", `license: MIT\ncompatibility: ${"y".repeat(501)}`);
    const message = (await loadError()).message;
    expect(message).toContain(`${file}: name: is required`);
    expect(message).toContain(`${file}: description: is required`);
    expect(message).toContain(`${file}: compatibility: is 501 characters; at most 500 are allowed`);
    writeFrontMatter("csv-audit", 'name: csv-audit\ndescription: Checks CSV files.\ncompatibility: ""');
    expect((await loadError()).message).toContain("compatibility: must not be empty when given");
  });

  it("reports a missing or unclosed front matter and invalid YAML", async () => {
    const csv = join(copy.dir, "csv-audit", "SKILL.md");
    writeFileSync(csv, "# CSV audit\nNo front matter here.\n");
    const notes = join(copy.dir, "release-notes", "SKILL.md");
    writeFileSync(notes, "---\nname: release-notes\ndescription: never closed\n");
    const review = writeFrontMatter("incident-review", "name: [incident-review\ndescription: x");
    const message = (await loadError()).message;
    expect(message).toContain(`${csv}: (front matter): the file must start with a '---' line`);
    expect(message).toContain(`${notes}: (front matter): the front matter has no closing '---' line`);
    expect(message).toContain(`${review}: (front matter): is not valid YAML`);
  });

  it("accepts allowed-tools as a list", async () => {
    writeFrontMatter(
      "csv-audit",
      "name: csv-audit\ndescription: Checks CSV files.\nallowed-tools:\n  - read_rows\n  - count_rows",
    );
    expect((await Skills.fromDirectory(copy.dir)).get("csv-audit")?.allowedTools).toEqual([
      "read_rows",
      "count_rows",
    ]);
  });
});

describe("Skills.fromDirectories and merge", () => {
  it("joins several folders, refusing a name that two of them use", async () => {
    const both = await Skills.fromDirectories([
      join(FIXTURE_SKILLS, "csv-audit"),
      join(copy.dir, "incident-review"),
    ]);
    expect(both.names).toEqual(["csv-audit", "incident-review"]);
    const error = await Skills.fromDirectories([FIXTURE_SKILLS, copy.dir]).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain(
      `${join(copy.dir, "csv-audit", "SKILL.md")}: name: 'csv-audit' is also the name of ${join(FIXTURE_SKILLS, "csv-audit", "SKILL.md")}`,
    );
  });

  it("merges collections, keeping names unique", async () => {
    const csv = await Skills.fromDirectory(join(FIXTURE_SKILLS, "csv-audit"));
    const haiku = Skills.of(Skill.of({ name: "haiku", description: "Writes haiku.", instructions: "5-7-5" }));
    expect(csv.merge(haiku).names).toEqual(["csv-audit", "haiku"]);
    expect(() => csv.merge(csv)).toThrow(/'csv-audit' is also the name of/);
  });
});

describe("Skill.of and Skills.of", () => {
  it("makes skills in code, validated like front matter", async () => {
    const skill = Skill.of({
      name: "haiku",
      description: "Writes haiku.",
      instructions: "Five, seven, five.",
    });
    expect(await skill.instructions()).toBe("Five, seven, five.");
    expect(skill.folder).toBeUndefined();
    expect(() => Skill.of({ name: "Haiku!", description: "", instructions: "" })).toThrow(
      /Skill\.of\('Haiku!'\): name: 'Haiku!' may hold only[\s\S]*Skill\.of\('Haiku!'\): description: must not be empty/,
    );
  });

  it("refuses two skills with one name", async () => {
    const loaded = await Skill.fromDirectory(join(FIXTURE_SKILLS, "csv-audit"));
    const twin = Skill.of({ name: "csv-audit", description: "Another.", instructions: "..." });
    expect(() => Skills.of(loaded, twin)).toThrow(/'csv-audit' is also the name of .*csv-audit\/SKILL\.md/);
  });
});

describe("Skills.asTool", () => {
  it("warns once through the logger about allowed-tools names it was not given", async () => {
    const warnings: string[] = [];
    const record = (level: LoggerLevel) => (message: string) => {
      if (level === "warn") warnings.push(message);
    };
    const previous = Logger.setDefault({
      debug: record("debug"),
      info: record("info"),
      warn: record("warn"),
      error: record("error"),
    });
    try {
      const skills = await Skills.fromDirectory(FIXTURE_SKILLS);
      skills.asTool();
      expect(warnings).toEqual([
        "Skill 'release-notes' allows tools that were not given to its Skills (ignored): list_merged_changes. Offer them with skills.withTools(...).",
      ]);
      warnings.length = 0;
      skills
        .withTools(Tool.create("list_merged_changes", "Lists changes", async () => ToolResult.text("none")))
        .asTool();
      expect(warnings).toEqual([]);
    } finally {
      Logger.setDefault(previous);
    }
  });
});
