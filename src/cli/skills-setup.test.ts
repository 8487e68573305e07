import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RELEASE_NOTES_SKILLS, example as releaseNotes } from "../../examples/release-notes/index.js";
import { captureLogs } from "../../test/support/captured-logs.js";
import { FIXTURE_SKILLS, UNGIVEN_TOOL_WARNING } from "../../test/support/skill-fixtures.js";
import { EMPTY_CONFIG } from "./cli-config.js";
import { mcpPlatformOptions } from "./mcp-setup.js";
import { lazySkillsToolGroups, skillDirectories, skillsToolGroups } from "./skills-setup.js";

describe("skillDirectories", () => {
  it("takes the example's config skills, then the user's config, then --skills (relative to cwd), once each", () => {
    const config = { ...EMPTY_CONFIG, skills: ["/team/skills", RELEASE_NOTES_SKILLS] };
    expect(skillDirectories(config, [releaseNotes], ["skills", "/team/skills"], "/work")).toEqual([
      RELEASE_NOTES_SKILLS,
      "/team/skills",
      "/work/skills",
    ]);
    expect(skillDirectories(EMPTY_CONFIG, [], undefined, "/work")).toEqual([]);
  });
});

describe("skillsToolGroups", () => {
  it("offers every folder's skills as the one 'skills' tool group", async () => {
    const groups = await skillsToolGroups([RELEASE_NOTES_SKILLS, FIXTURE_SKILLS]);
    expect(Object.keys(groups)).toEqual(["skills"]);
    const logs = captureLogs();
    const [facade] = await (groups.skills?.tools() ?? Promise.resolve([])).finally(() => logs.restore());
    // The fixture's release-notes allows a tool this folder does not give: one warning, through the logger.
    expect(logs.lines).toEqual([UNGIVEN_TOOL_WARNING]);
    expect(facade?.definition.name).toBe("skills");
    expect(facade?.definition.description.match(/^- [a-z-]+/gm)).toEqual([
      "- changelog-style",
      "- semver-bump",
      "- csv-audit",
      "- incident-review",
      "- release-notes",
    ]);
    expect(await skillsToolGroups([])).toEqual({});
  });

  it("stops at once on a broken SKILL.md, naming file and field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "embabel-cli-skills-"));
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "broken"));
    writeFileSync(join(dir, "broken", "SKILL.md"), "---\nname: broken\n---\nBody\n");
    await expect(skillsToolGroups([dir])).rejects.toThrow(
      `Invalid skills (1 problem):\n  ${join(dir, "broken", "SKILL.md")}: description: is required`,
    );
  });
});

describe("lazySkillsToolGroups", () => {
  it("loads the skills when an agent first asks for the group, and a broken folder fails that use", async () => {
    const dir = mkdtempSync(join(tmpdir(), "embabel-cli-skills-"));
    const { skills } = lazySkillsToolGroups([dir]);
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "haiku"));
    writeFileSync(
      join(dir, "haiku", "SKILL.md"),
      "---\nname: haiku\ndescription: Writes haiku.\n---\n5-7-5\n",
    );
    const [facade] = (await skills?.tools()) ?? [];
    expect(facade?.definition.description).toMatch(/\n- haiku: Writes haiku\.$/);
    const broken = lazySkillsToolGroups([join(dir, "missing")]).skills;
    await expect(broken?.tools()).rejects.toThrow(/^Cannot read the skills folder/);
  });

  it("is part of what mcp-serve and worker platforms get, from the examples' config files", () => {
    const options = mcpPlatformOptions(EMPTY_CONFIG, [releaseNotes], {});
    expect(Object.keys(options.toolGroups ?? {})).toEqual(["skills"]);
    expect(Object.keys(mcpPlatformOptions(EMPTY_CONFIG, [], {}).toolGroups ?? {})).toEqual([]);
  });
});
