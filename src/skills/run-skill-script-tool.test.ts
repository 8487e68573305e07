import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CapturedLogs, captureLogs } from "../../test/support/captured-logs.js";
import {
  copyFixtureSkills,
  type SkillsCopy,
  UNGIVEN_TOOL_WARNING,
} from "../../test/support/skill-fixtures.js";
import { ApprovalUnavailableError } from "../errors/approval-unavailable-error.js";
import { approvalCallbackAuthority } from "../loop/approval-callback-authority.js";
import { gateToolCall } from "../loop/tool-gate.js";
import type { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { SkillScriptCall, SkillScriptOptions } from "./run-skill-script-tool.js";
import { Skills } from "./skills.js";

let copy: SkillsCopy;
const context = ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "loop-1" });

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

/** The run_skill_script tool unfolded by activating `skill` on skills with `runScripts` and `scripts`. */
async function scriptRunner(skill: string, scripts: SkillScriptOptions = {}): Promise<Tool> {
  const facade = (await Skills.fromDirectory(copy.dir, { runScripts: true, scripts })).asTool();
  const input = JSON.stringify({ skill });
  await facade.call(input, context);
  const runner = facade
    .unfoldingFor({ input, context, definition: facade.definition })
    ?.tools.find((tool) => tool.definition.name === "run_skill_script");
  if (!runner) throw new Error("no run_skill_script unfolded");
  return runner;
}

/** Runs the script through the approval gate, a person approving. */
async function run(runner: Tool, skill: string, script: string, args?: readonly string[]) {
  const input = JSON.stringify({ skill, script, ...(args ? { args } : {}) });
  const outcome = await gateToolCall(
    { tool: runner, toolName: runner.definition.name, input, callKey: "loop-1/1.0" },
    { context, approvals: approvalCallbackAuthority(() => ({ approved: true })) },
  );
  if (outcome.kind !== "ran") throw new Error(`not run: ${JSON.stringify(outcome)}`);
  return outcome.result;
}

describe("run_skill_script", () => {
  it("refuses to run when called around the approval gate (a direct tool.call), and the script never runs", async () => {
    const marker = join(copy.dir, "csv-audit", "ran.txt");
    writeFileSync(
      join(copy.dir, "csv-audit", "scripts", "touch.mjs"),
      `import { writeFileSync } from "node:fs"; writeFileSync("ran.txt", "yes");\n`,
    );
    const runner = await scriptRunner("csv-audit");
    const failure = await runner
      .call(JSON.stringify({ skill: "csv-audit", script: "scripts/touch.mjs" }), context)
      .catch((error: unknown) => error);
    expect(ApprovalUnavailableError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(
      /run_skill_script' needs a person's approval and was called directly/,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("runs nothing when the person denies it through the gate", async () => {
    const marker = join(copy.dir, "csv-audit", "ran.txt");
    writeFileSync(
      join(copy.dir, "csv-audit", "scripts", "touch.mjs"),
      `import { writeFileSync } from "node:fs"; writeFileSync("ran.txt", "yes");\n`,
    );
    const runner = await scriptRunner("csv-audit");
    const outcome = await gateToolCall(
      {
        tool: runner,
        toolName: "run_skill_script",
        input: JSON.stringify({ skill: "csv-audit", script: "scripts/touch.mjs" }),
        callKey: "loop-1/1.0",
      },
      { context, approvals: approvalCallbackAuthority(() => ({ approved: false, reason: "not now" })) },
    );
    expect(outcome).toMatchObject({ kind: "refused", message: "The user denied this call: not now" });
    expect(existsSync(marker)).toBe(false);
  });

  it("runs a .mjs script with this Node, in the skill's folder", async () => {
    const runner = await scriptRunner("csv-audit");
    const result = await run(runner, "csv-audit", "scripts/summarize.mjs", ["assets/sample.csv"]);
    expect(result.kind).toBe("text");
    expect(result.content).toBe(
      "'scripts/summarize.mjs' exited with code 0.\nstdout:\nrows: 2\nheader: id,email,name",
    );
  });

  it("chooses the interpreter from the #! line and passes arguments without a shell", async () => {
    writeFileSync(
      join(copy.dir, "release-notes", "scripts", "echo_args"),
      "#!/usr/bin/env node\nfor (const arg of process.argv.slice(2)) console.log(JSON.stringify(arg));\n",
    );
    const runner = await scriptRunner("release-notes");
    const result = await run(runner, "release-notes", "scripts/echo_args", ["a b", "; touch pwned", "$HOME"]);
    expect(result.content).toBe(
      `'scripts/echo_args' exited with code 0.\nstdout:\n"a b"\n"; touch pwned"\n"$HOME"`,
    );
    expect(existsSync(join(copy.dir, "release-notes", "pwned"))).toBe(false);
  });

  it("reports a non-zero exit code with stderr", async () => {
    writeFileSync(
      join(copy.dir, "csv-audit", "scripts", "fail.mjs"),
      'console.error("bad header"); process.exit(3);\n',
    );
    const result = await run(await scriptRunner("csv-audit"), "csv-audit", "scripts/fail.mjs");
    expect(result.content).toBe(
      "'scripts/fail.mjs' exited with code 3.\nstdout: (empty)\nstderr:\nbad header",
    );
  });

  it("stops a script that runs past the timeout, even one ignoring SIGTERM", async () => {
    writeFileSync(
      join(copy.dir, "csv-audit", "scripts", "hang.mjs"),
      'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);\n',
    );
    const started = performance.now();
    const result = await run(
      await scriptRunner("csv-audit", { timeoutMs: 300 }),
      "csv-audit",
      "scripts/hang.mjs",
    );
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(/^'scripts\/hang\.mjs' was stopped after 300 ms \(time limit\)\./);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("stops a script that writes more than the output cap", async () => {
    writeFileSync(
      join(copy.dir, "csv-audit", "scripts", "noisy.mjs"),
      'for (;;) process.stdout.write("x".repeat(1024));\n',
    );
    const result = await run(
      await scriptRunner("csv-audit", { maxOutputBytes: 2048, timeoutMs: 10_000 }),
      "csv-audit",
      "scripts/noisy.mjs",
    );
    expect(result.kind).toBe("error");
    expect(result.content).toMatch(
      /^'scripts\/noisy\.mjs' was stopped: it wrote more than 2048 bytes of output\./,
    );
    expect(result.content.length).toBeLessThan(4096);
  });

  describe("leaves no process behind (own process group)", () => {
    /** Whether `pid` runs (a zombie waiting for its reaper counts as gone). */
    function running(pid: number): boolean {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    }

    async function gone(pids: readonly number[]): Promise<number> {
      for (let attempt = 0; attempt < 50 && pids.some(running); attempt++) await sleep(100);
      return pids.filter(running).length;
    }

    /** Runs `body` as scripts/orphan.sh after it started `sleep 300 &` and printed its pid; the pids it printed. */
    async function orphan(body: string, scripts: SkillScriptOptions, signal?: AbortSignal) {
      writeFileSync(
        join(copy.dir, "csv-audit", "scripts", "orphan.sh"),
        `#!/bin/sh\nsleep 300 &\necho "pid $!"\n${body}\n`,
      );
      // Without approval, so that the call can carry an abort signal directly.
      const runner = await scriptRunner("csv-audit", { ...scripts, humanApproval: false });
      const result = await runner.call(
        JSON.stringify({ skill: "csv-audit", script: "scripts/orphan.sh" }),
        context,
        signal ? { signal } : {},
      );
      const pids = [...result.content.matchAll(/pid (\d+)/g)].map((match) => Number(match[1]));
      expect(pids.length).toBeGreaterThan(0);
      return { result, pids };
    }

    it.skipIf(process.platform !== "linux")("on timeout: 0 processes left", async () => {
      const { result, pids } = await orphan("sleep 60", { timeoutMs: 1_000 });
      expect(result.content).toMatch(/was stopped after 1000 ms/);
      expect(await gone(pids)).toBe(0);
    });

    it.skipIf(process.platform !== "linux")("on output overflow: 0 processes left", async () => {
      const { result, pids } = await orphan("while :; do echo xxxxxxxxxxxxxxxxxxxxxxxx; done", {
        maxOutputBytes: 4096,
        timeoutMs: 20_000,
      });
      expect(result.content).toMatch(/wrote more than 4096 bytes/);
      expect(await gone(pids)).toBe(0);
    });

    it.skipIf(process.platform !== "linux")("on abort: 0 processes left", async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 1_000);
      const started = performance.now();
      const { result, pids } = await orphan("sleep 60", { timeoutMs: 20_000 }, controller.signal);
      expect(result.content).toMatch(/was stopped: the call was cancelled/);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(await gone(pids)).toBe(0);
    });

    it.skipIf(process.platform !== "linux")(
      "when the script ends: 0 processes left, output kept",
      async () => {
        const { result, pids } = await orphan("echo done", { timeoutMs: 20_000 });
        expect(result.content).toMatch(
          /^'scripts\/orphan\.sh' exited with code 0\.\nstdout:\npid \d+\ndone$/,
        );
        expect(await gone(pids)).toBe(0);
      },
    );
  });

  it("gives scripts only a minimal environment (no secrets of this process)", async () => {
    process.env.EMBABEL_SKILLS_TEST_SECRET = "hunter2";
    try {
      writeFileSync(
        join(copy.dir, "csv-audit", "scripts", "env.mjs"),
        "console.log(process.env.EMBABEL_SKILLS_TEST_SECRET ?? 'unset');\n",
      );
      const result = await run(await scriptRunner("csv-audit"), "csv-audit", "scripts/env.mjs");
      expect(result.content).toContain("stdout:\nunset");
    } finally {
      delete process.env.EMBABEL_SKILLS_TEST_SECRET;
    }
  });

  it("asks approve before each run, and a refusal runs nothing", async () => {
    const marker = join(copy.dir, "csv-audit", "ran.txt");
    writeFileSync(
      join(copy.dir, "csv-audit", "scripts", "touch.mjs"),
      `import { writeFileSync } from "node:fs"; writeFileSync("ran.txt", "yes");\n`,
    );
    const calls: SkillScriptCall[] = [];
    const runner = await scriptRunner("csv-audit", {
      approve: async (call) => {
        calls.push(call);
        return false;
      },
    });
    const result = await run(runner, "csv-audit", "scripts/touch.mjs", ["--now"]);
    expect(result.kind).toBe("error");
    expect(result.content).toBe(
      "Running 'scripts/touch.mjs' was not approved. Do without it, or ask the user.",
    );
    expect(existsSync(marker)).toBe(false);
    expect(calls).toEqual([
      {
        skill: "csv-audit",
        script: "scripts/touch.mjs",
        args: ["--now"],
        cwd: expect.stringMatching(/csv-audit$/),
        command: [process.execPath, expect.stringMatching(/scripts\/touch\.mjs$/)],
      },
    ]);
  });

  it("refuses files outside scripts/, paths leading out, and files without a known interpreter", async () => {
    const runner = await scriptRunner("csv-audit");
    expect((await run(runner, "csv-audit", "references/checks.md")).content).toBe(
      "Cannot run 'references/checks.md' from the skill 'csv-audit': only files under scripts/ can be run. Scripts you can run: scripts/summarize.mjs.",
    );
    expect((await run(runner, "csv-audit", "../release-notes/scripts/group_changes.py")).content).toMatch(
      /the path leads outside the skill's folder/,
    );
    expect((await run(runner, "csv-audit", copy.secret)).content).toMatch(/absolute paths are not allowed/);
    writeFileSync(join(copy.dir, "csv-audit", "scripts", "notes.txt"), "no interpreter here");
    expect((await run(runner, "csv-audit", "scripts/notes.txt")).content).toMatch(
      /^Cannot run 'scripts\/notes\.txt': its interpreter is unknown/,
    );
  });

  it("refuses skills that are not active", async () => {
    const runner = await scriptRunner("csv-audit");
    expect((await run(runner, "release-notes", "scripts/group_changes.py")).content).toMatch(
      /^The skill 'release-notes' is not active/,
    );
  });
});
