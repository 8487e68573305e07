import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The committed fixture skills: release-notes, csv-audit (with a binary asset) and incident-review. */
export const FIXTURE_SKILLS = fileURLToPath(new URL("../fixtures/skills", import.meta.url));

/**
 * The one warning the fixture skills cause when offered without the tool
 * release-notes' `allowed-tools` names (`list_merged_changes`).
 */
export const UNGIVEN_TOOL_WARNING =
  "warn: Skill 'release-notes' allows tools that were not given to its Skills (ignored): list_merged_changes. Offer them with skills.withTools(...).";

/** A fresh copy of the fixture skills in a temp folder, with a secret file beside it and a link out to it. */
export interface SkillsCopy {
  /** The copied skills folder. */
  readonly dir: string;
  /** A file outside every skill folder. */
  readonly secret: string;
  /** Removes the temp folder. */
  remove(): void;
}

/**
 * Copies the fixture skills to a temp folder and adds, at run time, a
 * symbolic link `release-notes/references/leak.md` pointing to a file
 * outside the skills folder.
 */
export function copyFixtureSkills(): SkillsCopy {
  const root = mkdtempSync(join(tmpdir(), "embabel-skills-"));
  const dir = join(root, "skills");
  cpSync(FIXTURE_SKILLS, dir, { recursive: true });
  const secret = join(root, "secret.txt");
  writeFileSync(secret, "TOP SECRET: not part of any skill\n");
  symlinkSync(secret, join(dir, "release-notes", "references", "leak.md"));
  return { dir, secret, remove: () => rmSync(root, { recursive: true, force: true }) };
}
