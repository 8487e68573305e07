import { type ChildProcess, spawn } from "node:child_process";
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

/** Kills `child`'s process group (the script and everything it started; `child` alone on Windows). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(process.platform === "win32" ? child.pid : -child.pid, "SIGKILL");
  } catch {
    // the group is gone already
  }
}

function isInsideScripts(relativePath: string): boolean {
  return relativePath.startsWith("scripts/");
}

interface ScriptOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly failure?: "timeout" | "output" | "aborted" | "start";
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

  /**
   * Runs the script in its own process group (`detached`), so that the whole
   * group dies on timeout, output overflow, abort, and when the script itself
   * ends: nothing it started in the background outlives the call.
   */
  private run(
    command: readonly string[],
    args: readonly string[],
    cwd: string,
    signal: AbortSignal | undefined,
  ): Promise<ScriptOutcome> {
    const [program, ...leading] = command as [string, ...string[]];
    return new Promise((resolve) => {
      const chunks: { stdout: Buffer[]; stderr: Buffer[] } = { stdout: [], stderr: [] };
      let kept = 0;
      let failure: ScriptOutcome["failure"];
      let child: ChildProcess;
      try {
        child = spawn(program, [...leading, ...args], {
          cwd,
          env: this.options.env ?? defaultEnv(),
          detached: process.platform !== "win32",
          stdio: ["ignore", "pipe", "pipe"],
          windowsHide: true,
          shell: false,
        });
      } catch (error) {
        resolve({ code: null, stdout: "", stderr: "", failure: "start", message: (error as Error).message });
        return;
      }
      const stop = (reason: NonNullable<ScriptOutcome["failure"]>): void => {
        failure ??= reason;
        killGroup(child);
      };
      const timer = setTimeout(() => stop("timeout"), this.timeoutMs);
      const onAbort = (): void => stop("aborted");
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
      const keep =
        (into: Buffer[]) =>
        (chunk: Buffer): void => {
          const room = this.maxOutputBytes - kept;
          if (chunk.length > room) {
            if (room > 0) into.push(chunk.subarray(0, room));
            kept = this.maxOutputBytes;
            stop("output");
            return;
          }
          into.push(chunk);
          kept += chunk.length;
        };
      child.stdout?.on("data", keep(chunks.stdout));
      child.stderr?.on("data", keep(chunks.stderr));
      // The script ended: end what it left running too, so that its pipes close.
      child.once("exit", () => killGroup(child));
      const settle = (code: number | null, message?: string): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const stdout = Buffer.concat(chunks.stdout).toString("utf8");
        const stderr = Buffer.concat(chunks.stderr).toString("utf8");
        if (message !== undefined) resolve({ code: null, stdout, stderr, failure: "start", message });
        else resolve({ code: failure ? null : code, stdout, stderr, ...(failure ? { failure } : {}) });
      };
      child.once("error", (error) => {
        if (child.pid === undefined) settle(null, error.message);
      });
      child.once("close", (code) => settle(code));
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
      case "aborted":
        return ToolResult.error(`'${script}' was stopped: the call was cancelled.\n${output}`);
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
