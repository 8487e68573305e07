import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RELEASE_NOTES_SKILLS, example as releaseNotes } from "../../examples/release-notes/index.js";
import { FIXTURE_SKILLS } from "../../test/support/skill-fixtures.js";
import { EMPTY_CONFIG } from "./cli-config.js";
import { skillDirectories, skillsToolGroups } from "./skills-setup.js";

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
    const [facade] = (await groups.skills?.tools()) ?? [];
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
