import { describe, expect, it } from "vitest";
import { AgentPlatform, Skills } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { UserInput } from "../user-input.js";
import {
  changesFrom,
  example,
  nextVersion,
  RELEASE_NOTES_CONFIG,
  RELEASE_NOTES_SKILLS,
  type ReleaseNotes,
  ReleaseNotesWriter,
  releaseNotesScript,
} from "./index.js";

describe("ReleaseNotesWriter (on its recorded script, following the Agent Skills in its config file)", () => {
  it("activates the skills it needs through one facade, reads a reference, and writes notes in their style", async () => {
    const model = new ScriptedModel(releaseNotesScript());
    const skills = await Skills.fromDirectory(RELEASE_NOTES_SKILLS);
    const platform = AgentPlatform.create({
      models: { default: model },
      toolGroups: [skills.asToolGroup()],
    });
    const process = await platform.runAgent(
      platform.deploy(ReleaseNotesWriter),
      UserInput.create({ content: example.sampleInput }),
    );
    expect(process.status).toBe("completed");
    expect(model.toolNamesPerRequest).toEqual([
      ["skills"],
      ["skills", "read_skill_file"],
      ["skills", "read_skill_file"],
      ["skills", "read_skill_file"],
    ]);
    const description = model.requests[0]?.tools[0]?.description ?? "";
    expect(description).toContain("- changelog-style: The house style for release notes");
    expect(description).toContain("- semver-bump: Chooses the next semantic version");
    expect(model.requests[2]?.toolResults[0]?.output).toMatchObject({
      value: expect.stringMatching(/^# Voice/),
    });
    expect(process.result as ReleaseNotes).toEqual({
      version: "2.4.0",
      notes: [
        "## 2.4.0",
        "### Added\n- Adds an export button to every report",
        "### Fixed\n- Stops the crash when a report has no rows",
      ].join("\n\n"),
    });
  });

  it("is described for the CLI, with the config file that names its skills", () => {
    expect(example.name).toBe("release-notes");
    expect(example.configFile).toBe(RELEASE_NOTES_CONFIG);
  });

  it("bumps versions as the semver-bump skill says", () => {
    expect(nextVersion("2.3.1", changesFrom("Changes: fix: a"))).toBe("2.3.2");
    expect(nextVersion("2.3.1", changesFrom("Changes: feat!: drop --out"))).toBe("3.0.0");
    expect(nextVersion("0.4.2", changesFrom("Changes: feat!: drop --out"))).toBe("0.5.0");
    expect(nextVersion("2.3.1", changesFrom("Changes: chore: tidy"))).toBe("2.3.1");
  });
});
