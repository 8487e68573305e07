import { execFile } from "node:child_process";
import { AbstractTool } from "../tool/abstract-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import type { ToolCallOptions } from "../tool/tool.js";
import type { ToolApproval } from "../tool/tool-approval.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { toolParams } from "../tool/tool-params.js";
import { ToolResult } from "../tool/tool-result.js";
import { activeSkill, type SkillCatalog } from "./skill-catalog.js";
import { listSkillFiles, resolveSkillPath, sniff } from "./skill-files.js";
import { interpreterFor } from "./skill-script-interpreter.js";

/** The name the model sees. */
export const RUN_SKILL_SCRIPT = "run_skill_script";

/** A script run the model asked for, as the `approve` hook sees it. */
export interface SkillScriptCall {
  /** The skill's name. */
  readonly skill: string;
  /** The script, relative to the skill's folder (`scripts/fill_form.py`). */
  readonly script: string;
  /** The arguments passed to it. */
  readonly args: readonly string[];
  /** The folder it runs in (the skill's folder). */
  readonly cwd: string;
  /** The program that runs it and that program's own arguments, then the script's path. */
  readonly command: readonly string[];
}

/** Options of script runs (`Skills` option `runScripts: true`). */
export interface SkillScriptOptions {
  /** A script still running after this long is stopped. @default 30000 */
  readonly timeoutMs?: number;
  /** Output (stdout and stderr together) kept; a script writing more is stopped. @default 65536 */
  readonly maxOutputBytes?: number;
  /**
   * Whether a person approves each run first (`Tool.requireApproval`: inside
   * an agent process the run waits for `platform.respond`, the CLI's prompt or
   * `--approve-all`; outside any process it is denied in-band). `false` runs
   * scripts without asking; an object sets the approval's options.
   * @default true
   */
  readonly humanApproval?: boolean | ToolApproval;
  /**
   * Asked before every run (after a person approved it, when one must); `false`
   * refuses it in-band. For a policy in code.
   * @default every run is allowed
   */
  readonly approve?: (call: SkillScriptCall) => boolean | Promise<boolean>;
  /** The environment scripts see. @default only PATH, HOME, LANG, LC_ALL, TMPDIR, TEMP, TMP and SYSTEMROOT of this process */
  readonly env?: Readonly<Record<string, string>>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
const PASSED_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT"];

function defaultEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PASSED_ENV) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

function isInsideScripts(relativePath: string): boolean {
  return relativePath.startsWith("scripts/");
}

interface ScriptOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly failure?: "timeout" | "output" | "start";
  readonly message?: string;
}

/**
 * `run_skill_script`: runs a file under an active skill's `scripts/` folder
 * with its interpreter (chosen by `#!` line or extension), in the skill's
 * folder, without a shell, with a timeout and an output cap. Offered only
 * when the skills were given `runScripts: true`.
 */
export class RunSkillScriptTool extends AbstractTool {
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  readonly definition: ToolDefinition;
  private readonly timeoutMs: number;
  private readonly maxOutputBytes: number;

  constructor(
    private readonly catalog: SkillCatalog,
    private readonly options: SkillScriptOptions = {},
  ) {
    super();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.definition = toolDefinition(
      RUN_SKILL_SCRIPT,
      `Runs a script from the scripts/ folder of a skill you activated with '${catalog.facadeName}', in the skill's folder, and returns its exit code and output. Runs are limited to ${Math.round(this.timeoutMs / 1000)} seconds.`,
      InputSchema.of(
        Param.string("skill", "The name of the active skill"),
        Param.string("script", "The script's path relative to the skill's folder (scripts/…)"),
        Param.array("args", "string", "Command-line arguments for the script", { required: false }),
      ),
    );
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const fields = toolParams(input);
    const skill = activeSkill(this.catalog, context, fields.skill);
    if (ToolResult.isToolResult(skill)) return skill;
    if (skill.folder === undefined) {
      return ToolResult.error(`The skill '${skill.name}' was written in code and has no scripts.`);
    }
    const script = typeof fields.script === "string" ? fields.script : "";
    const args = Array.isArray(fields.args) ? fields.args.map((arg) => String(arg)) : [];
    const resolved = await resolveSkillPath(skill.folder, script);
    if (resolved.kind === "refused" || !isInsideScripts(resolved.relative)) {
      const reason = resolved.kind === "refused" ? resolved.reason : "only files under scripts/ can be run";
      return ToolResult.error(
        `Cannot run '${script}' from the skill '${skill.name}': ${reason}. ${await runnableScripts(skill.folder)}`,
      );
    }
    const head = new TextDecoder().decode((await sniff(resolved.path, 512)).bytes);
    const interpreter = interpreterFor(resolved.path, head);
    if (!interpreter) {
      return ToolResult.error(
        `Cannot run '${resolved.relative}': its interpreter is unknown (no #! line, and no known extension such as .py, .sh or .js).`,
      );
    }
    const command = [interpreter.command, ...interpreter.args, resolved.path];
    const call: SkillScriptCall = {
      skill: skill.name,
      script: resolved.relative,
      args,
      cwd: skill.folder,
      command,
    };
    if (this.options.approve && !(await this.options.approve(call))) {
      return ToolResult.error(
        `Running '${resolved.relative}' was not approved. Do without it, or ask the user.`,
      );
    }
    const outcome = await this.run(command, args, skill.folder, options.signal);
    return this.report(resolved.relative, outcome);
  }

  private run(
    command: readonly string[],
    args: readonly string[],
    cwd: string,
    signal: AbortSignal | undefined,
  ): Promise<ScriptOutcome> {
    const [program, ...leading] = command as [string, ...string[]];
    return new Promise((resolve) => {
      execFile(
        program,
        [...leading, ...args],
        {
          cwd,
          env: this.options.env ?? defaultEnv(),
          timeout: this.timeoutMs,
          killSignal: "SIGKILL",
          maxBuffer: this.maxOutputBytes,
          encoding: "utf8",
          windowsHide: true,
          shell: false,
          ...(signal ? { signal } : {}),
        },
        (error, stdout, stderr) => {
          if (!error) return resolve({ code: 0, stdout, stderr });
          const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
          if (failure.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") {
            return resolve({ code: null, stdout, stderr, failure: "output" });
          }
          if (failure.killed && !signal?.aborted)
            return resolve({ code: null, stdout, stderr, failure: "timeout" });
          if (typeof failure.code === "number") return resolve({ code: failure.code, stdout, stderr });
          return resolve({ code: null, stdout, stderr, failure: "start", message: failure.message });
        },
      );
    });
  }

  private report(script: string, outcome: ScriptOutcome): ToolResult {
    const output = [
      outcome.stdout.length > 0 ? `stdout:\n${outcome.stdout.trimEnd()}` : "stdout: (empty)",
      outcome.stderr.length > 0 ? `stderr:\n${outcome.stderr.trimEnd()}` : "",
    ]
      .filter(Boolean)
      .join("\n");
    switch (outcome.failure) {
      case "timeout":
        return ToolResult.error(
          `'${script}' was stopped after ${this.timeoutMs} ms (time limit).\n${output}`,
        );
      case "output":
        return ToolResult.error(
          `'${script}' was stopped: it wrote more than ${this.maxOutputBytes} bytes of output.\n${output}`,
        );
      case "start":
        return ToolResult.error(`'${script}' could not be started: ${outcome.message}`);
      default:
        return ToolResult.text(`'${script}' exited with code ${outcome.code}.\n${output}`);
    }
  }
}

/** "Scripts you can run: …" for a refusal. */
async function runnableScripts(folder: string): Promise<string> {
  const listing = await listSkillFiles(folder);
  const scripts = [...listing.text, ...listing.binary].filter(isInsideScripts);
  return scripts.length === 0 ? "This skill has no scripts." : `Scripts you can run: ${scripts.join(", ")}.`;
}
