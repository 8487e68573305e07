import type { ExampleDefinition } from "../../src/cli/example-definition.js";
import { packagePath } from "../../src/package-root.js";
import { catalogEntry } from "../catalog.js";
import { RECORDED_WITH } from "../script-helpers.js";
import { UserInput } from "../user-input.js";
import type { ReleaseNotes } from "./domain.js";
import { ReleaseNotesWriter } from "./release-notes-writer.js";
import { releaseNotesScript } from "./script.js";

export { ReleaseNotes } from "./domain.js";
export { ReleaseNotesWriter } from "./release-notes-writer.js";
export { changesFrom, currentVersionFrom, nextVersion, notesFor, releaseNotesScript } from "./script.js";

/** The example's folder in the package (its config file and skills live there, also when run from `dist/`). */
const SOURCE_DIR: string = packagePath("examples/release-notes/");

/** The example's config file: `{ "skills": ["./skills"] }`. */
export const RELEASE_NOTES_CONFIG = `${SOURCE_DIR}embabel.config.json`;

/** The example's Agent Skills folder (changelog-style, semver-bump). */
export const RELEASE_NOTES_SKILLS = `${SOURCE_DIR}skills`;

/** `embabel-ts run release-notes "<changes>"`. */
export const example: ExampleDefinition = {
  ...catalogEntry("release-notes"),
  agents: [ReleaseNotesWriter],
  configFile: RELEASE_NOTES_CONFIG,
  input: (text) => UserInput.create({ content: text }),
  recordedWith: RECORDED_WITH,
  script: releaseNotesScript,
  formatResult(result) {
    const notes = result as ReleaseNotes;
    return typeof notes?.notes === "string" ? notes.notes : JSON.stringify(result, null, 2);
  },
};
