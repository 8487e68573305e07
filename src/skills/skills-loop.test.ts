// Skills through the real tool loop: a PromptRunner and an agentic tool driven
// by the scripted model, asserting on what the model was offered at each step.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CapturedLogs, captureLogs } from "../../test/support/captured-logs.js";
import {
  copyFixtureSkills,
  type SkillsCopy,
  UNGIVEN_TOOL_WARNING,
} from "../../test/support/skill-fixtures.js";
import { SimpleAgenticTool } from "../agentic/simple-agentic-tool.js";
import { ApprovalUnavailableError } from "../errors/approval-unavailable-error.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { PromptRunner } from "../prompt/prompt-runner.js";
import { ToolGroupRegistry } from "../prompt/tool-group-registry.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ScriptedRequest } from "../testing/scripted-step.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { Skills } from "./skills.js";

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

function runnerOn(model: ScriptedModel): PromptRunner {
  return PromptRunner.create({
    resolveLlm: () => ({ model, name: "main", settings: {} }),
    toolGroups: new ToolGroupRegistry(),
  });
}

function lastResult(request: ScriptedRequest | undefined): string {
  const output = request?.toolResults.at(-1)?.output as { value?: unknown } | undefined;
  return String(output?.value ?? "");
}

/** Every request's tools and messages start with the previous request's, byte for byte. */
function expectAppendOnly(requests: readonly ScriptedRequest[]): void {
  for (let index = 1; index < requests.length; index++) {
    const before = requests[index - 1] as ScriptedRequest;
    const after = requests[index] as ScriptedRequest;
    expect(JSON.stringify(after.tools.slice(0, before.tools.length))).toBe(JSON.stringify(before.tools));
    expect(JSON.stringify(after.prompt.slice(0, before.prompt.length))).toBe(JSON.stringify(before.prompt));
  }
}

const listChanges = Tool.create(
  "list_merged_changes",
  "Lists the changes merged since the last release",
  async () => ToolResult.text("feat: dark mode\nfix: crash when saving an empty draft"),
);
const deploy = Tool.create("deploy", "Deploys to production", async () => ToolResult.text("deployed"));

describe("PromptRunner.withSkills", () => {
  it("offers one facade, then appends each skill's tools as it is activated, never reordering or removing", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("skills", { skill: "release-notes" }),
      ScriptedModel.toolCall("read_skill_file", { skill: "release-notes", path: "references/categories.md" }),
      ScriptedModel.toolCall("list_merged_changes"),
      ScriptedModel.toolCall("skills", { skill: "release-notes" }),
      ScriptedModel.toolCall("skills", { skill: "csv-audit" }),
      ScriptedModel.toolCall("run_skill_script", { skill: "csv-audit", script: "scripts/summarize.mjs" }),
      ScriptedModel.text("## 2.0\n- Adds dark mode\n- Fixes a crash when saving an empty draft"),
    );
    // No person to ask here (outside an agent process): scripts run without approval only when told so.
    const skills = (
      await Skills.fromDirectory(copy.dir, { runScripts: true, scripts: { humanApproval: false } })
    ).withTools(listChanges, deploy);
    const text = await runnerOn(model)
      .withTool(deploy)
      .withSkills(skills)
      .generateText("Write the release notes");

    expect(text).toMatch(/^## 2\.0/);
    const unfolded = ["deploy", "skills", "read_skill_file", "run_skill_script", "list_merged_changes"];
    expect(model.toolNamesPerRequest).toEqual([["deploy", "skills"], ...Array(6).fill(unfolded)]);
    expectAppendOnly(model.requests);
    const body = readFileSync(join(copy.dir, "release-notes", "SKILL.md"), "utf8")
      .split("\n---\n")[1]
      ?.trim();
    expect(lastResult(model.requests[1]).startsWith(body ?? "?")).toBe(true);
    expect(lastResult(model.requests[2])).toMatch(/^# Categories/);
    expect(lastResult(model.requests[3])).toMatch(/^feat: dark mode/);
    expect(lastResult(model.requests[4])).toMatch(
      /^ALREADY LOADED\. The body of 'release-notes' was returned earlier/,
    );
    expect(lastResult(model.requests[5])).toMatch(/^# CSV audit/);
    expect(lastResult(model.requests[6])).toBe(
      "'scripts/summarize.mjs' exited with code 0.\nstdout:\nrows: 2\nheader: id,email,name",
    );
  });

  it("asks a person before a script runs by default: with nobody to ask, the run throws and no script runs", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("skills", { skill: "csv-audit" }),
      ScriptedModel.toolCall("run_skill_script", { skill: "csv-audit", script: "scripts/summarize.mjs" }),
      ScriptedModel.text("done"),
    );
    const failure = await runnerOn(model)
      .withSkills(await Skills.fromDirectory(copy.dir, { runScripts: true }))
      .generateText("Audit the CSV")
      .catch((error: unknown) => error);
    expect(ApprovalUnavailableError.isInstance(failure)).toBe(true);
    expect(model.requests).toHaveLength(2);
  });

  it("asks the approval callback before a script runs, with the validated arguments", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("skills", { skill: "csv-audit" }),
      ScriptedModel.toolCall("run_skill_script", { skill: "csv-audit", script: "scripts/summarize.mjs" }),
      ScriptedModel.text("done"),
    );
    const asked: unknown[] = [];
    await runnerOn(model)
      .withSkills(await Skills.fromDirectory(copy.dir, { runScripts: true }))
      .withApproval((question) => {
        asked.push(question);
        return { approved: true };
      })
      .generateText("Audit the CSV");
    expect(asked).toEqual([
      {
        toolName: "run_skill_script",
        input: { skill: "csv-audit", script: "scripts/summarize.mjs" },
        message: 'Allow the skill script {"skill":"csv-audit","script":"scripts/summarize.mjs"} to run?',
      },
    ]);
    expect(lastResult(model.requests[2])).toContain("exited with code 0");
  });

  it("keeps the facade's definition identical after activation (the first request is a prefix of the rest)", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("skills", { skill: "incident-review" }),
      ScriptedModel.text("done"),
    );
    await runnerOn(model)
      .withSkills(await Skills.fromDirectory(copy.dir))
      .generateText("Write up last night's outage");
    expect(model.requests[0]?.tools).toHaveLength(1);
    expect(model.requests[1]?.tools[0]).toEqual(model.requests[0]?.tools[0]);
    expectAppendOnly(model.requests);
  });

  it("keeps a re-described facade's definition too (the guide takes the definition it was offered under)", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("team_skills", { skill: "incident-review" }),
      ScriptedModel.toolCall("team_skills", { skill: "incident-review" }),
      ScriptedModel.text("done"),
    );
    const facade = (await Skills.fromDirectory(copy.dir))
      .asTool({ name: "team_skills" })
      .withNote("Ask first.");
    await runnerOn(model).withTool(facade).generateText("Write up last night's outage");
    expect(model.requests[0]?.tools[0]?.description).toMatch(/Ask first\.$/);
    expect(model.toolNamesPerRequest).toEqual([
      ["team_skills"],
      ["team_skills", "read_skill_file"],
      ["team_skills", "read_skill_file"],
    ]);
    expectAppendOnly(model.requests);
    expect(lastResult(model.requests[2])).toMatch(/^ALREADY LOADED\. The body of 'incident-review'/);
  });

  it("offers a skill's tools again in a later loop sharing the loop id (the body is not sent twice)", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("skills", { skill: "incident-review" }),
      ScriptedModel.text("first"),
      ScriptedModel.toolCall("skills", { skill: "incident-review" }),
      ScriptedModel.toolCall("read_skill_file", { skill: "incident-review", path: "references/timeline.md" }),
      ScriptedModel.text("second"),
    );
    const runner = runnerOn(model)
      .withSkills(await Skills.fromDirectory(copy.dir))
      .withToolCallContext({ [ToolCallContext.LOOP_ID_KEY]: "turn-1" });
    expect(await runner.generateText("Start the review")).toBe("first");
    expect(await runner.generateText("Now the timeline")).toBe("second");
    expect(model.toolNamesPerRequest).toEqual([
      ["skills"],
      ["skills", "read_skill_file"],
      ["skills"],
      ["skills", "read_skill_file"],
      ["skills", "read_skill_file"],
    ]);
    expect(lastResult(model.requests[3])).toMatch(/^ALREADY LOADED\. The body of 'incident-review'/);
    expect(lastResult(model.requests[4])).toMatch(/^# Timeline format/);
  });

  it("answers a refused read in-band and the loop goes on", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("skills", { skill: "release-notes" }),
      ScriptedModel.toolCall("read_skill_file", { skill: "release-notes", path: "references/leak.md" }),
      ScriptedModel.toolCall("read_skill_file", { skill: "release-notes", path: "../../secret.txt" }),
      ScriptedModel.text("I could not read that file."),
    );
    const text = await runnerOn(model)
      .withSkills(await Skills.fromDirectory(copy.dir))
      .generateText("Read the leak");
    expect(text).toBe("I could not read that file.");
    expect(lastResult(model.requests[2])).toContain("link leading outside the skill's folder");
    expect(lastResult(model.requests[3])).toContain("the path leads outside the skill's folder");
    expect(JSON.stringify(model.requests.map((request) => request.prompt))).not.toContain("TOP SECRET");
  });
});

describe("AgenticTool.withSkills", () => {
  it("gives the agentic tool's own loop the skills facade", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("skills", { skill: "release-notes" }),
      ScriptedModel.text("## 2.0\n- Adds dark mode"),
    );
    const platform = AgentPlatform.create({ models: { main: model }, roles: { default: "main" } });
    const tool = SimpleAgenticTool.create("release_writer", "Writes release notes").withSkills(
      await Skills.fromDirectory(copy.dir),
    );
    let answer: ToolResult | undefined;
    await platform.runInProcess(async () => {
      answer = await tool.call('{"input": "Write the release notes"}');
    });
    expect(answer?.content).toBe("## 2.0\n- Adds dark mode");
    expect(model.toolNamesPerRequest).toEqual([["skills"], ["skills", "read_skill_file"]]);
  });
});
