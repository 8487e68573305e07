import { achievesGoal, action, agent, type OperationContext } from "../../src/index.js";
import { UserInput } from "../user-input.js";
import { ReleaseNotes } from "./domain.js";

/**
 * Writes release notes from a list of changes. How to write them is not in
 * the code: the action asks for the `skills` tool group, which the example's
 * config file (`"skills": ["./skills"]`) fills with Agent Skills folders. The
 * model sees one `skills` tool listing them, activates what it needs, and
 * reads the files the skills point to.
 */
@agent({
  name: "ReleaseNotesWriter",
  description: "Writes release notes and picks the next version, following the team's Agent Skills",
})
export class ReleaseNotesWriter {
  @achievesGoal({ description: "Release notes have been written" })
  @action({ input: UserInput, output: ReleaseNotes, description: "Write the release notes" })
  async write(request: UserInput, context: OperationContext): Promise<ReleaseNotes> {
    return context
      .ai()
      .withToolGroup("skills")
      .creating(ReleaseNotes)
      .fromPrompt(
        [
          "Write the release notes for these changes and choose the version number.",
          "Use the skills that apply, and follow them.",
          `Request: ${request.content}`,
        ].join("\n"),
      );
  }
}
