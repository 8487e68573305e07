import type { ProgressiveTool } from "../progressive/progressive-tool.js";
import { UnfoldingRecords } from "../progressive/unfolding-records.js";
import { AbstractTool, DelegatingTool } from "../tool/abstract-tool.js";
import type { AmbientProcess } from "../tool/ambient-process.js";
import { InputSchema } from "../tool/input-schema.js";
import { OneShotPerLoopTool } from "../tool/one-shot-per-loop-tool.js";
import { Param } from "../tool/param.js";
import { requireApproval } from "../tool/require-approval.js";
import { Tool, type ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { toolParams } from "../tool/tool-params.js";
import { ToolResult } from "../tool/tool-result.js";
import type { Unfolding, UnfoldingCall, UnfoldingSource } from "../tool/unfolding.js";
import { READ_SKILL_FILE, ReadSkillFileTool } from "./read-skill-file-tool.js";
import { RUN_SKILL_SCRIPT, RunSkillScriptTool, type SkillScriptOptions } from "./run-skill-script-tool.js";
import type { Skill } from "./skill.js";
import { SkillActivations } from "./skill-activations.js";
import type { SkillCatalog } from "./skill-catalog.js";
import { listSkillFiles } from "./skill-files.js";

/** How a {@link SkillsTool} is built (from `Skills` and its options). */
export interface SkillsToolInit {
  readonly name: string;
  readonly skills: readonly Skill[];
  /** Tools a skill's `allowed-tools` may name, offered while that skill is active. */
  readonly allowed: ReadonlyMap<string, Tool>;
  /** Set when scripts may run. */
  readonly scripts: SkillScriptOptions | undefined;
  readonly maxReadBytes?: number;
}

const ADVICE =
  "Follow the skill's instructions now; read its files with read_skill_file when they point to one.";

/** The facade under the definition it was offered with (a renamed or re-described wrapper), so that definition stays. */
class OfferedFacade extends DelegatingTool {
  constructor(
    delegate: Tool,
    private readonly offered: ToolDefinition,
  ) {
    super(delegate);
  }

  override get definition(): ToolDefinition {
    return this.offered;
  }
}

/** The facade's description: what skills are, how to activate one, and each skill's name and description. */
function describe(skills: readonly Skill[]): string {
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, " ").trim()}`);
  return [
    'Agent Skills: instructions, and files, for particular tasks. When the task matches a skill below, call this tool with {"skill": "<name>"} before you start, then follow the instructions it returns.',
    "Skills:",
    ...lines,
  ].join("\n");
}

/**
 * The tool `Skills.asTool()` returns: one facade whose description lists
 * every skill by name and description. Calling it with `{"skill": "<name>"}`
 * activates that skill: the answer is the skill's instructions (once per tool
 * loop; a repeat gets the `ALREADY LOADED. …` answer of
 * {@link OneShotPerLoopTool}), and the loop appends `read_skill_file`,
 * `run_skill_script` (with `runScripts`) and the tools the skill's
 * `allowed-tools` names. The facade stays where it is and nothing is
 * removed, so earlier requests stay a prefix of later ones.
 */
export class SkillsTool extends AbstractTool implements ProgressiveTool, UnfoldingSource {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  /** The skills it activates, in the order listed. */
  readonly skills: readonly Skill[];
  private readonly catalog: SkillCatalog;
  private readonly activators = new Map<string, OneShotPerLoopTool>();
  private readonly reader: ReadSkillFileTool;
  private readonly runner: Tool | undefined;
  private readonly allowed: ReadonlyMap<string, Tool>;
  private readonly records = new UnfoldingRecords();
  private readonly offeredFacades = new WeakMap<ToolDefinition, Tool>();

  constructor(init: SkillsToolInit) {
    super();
    this.skills = init.skills;
    this.allowed = init.allowed;
    this.definition = toolDefinition(
      init.name,
      describe(init.skills),
      InputSchema.of(Param.string("skill", "The name of the skill to activate")),
    );
    this.catalog = {
      skills: new Map(init.skills.map((skill) => [skill.name, skill])),
      activations: new SkillActivations(),
      facadeName: init.name,
    };
    this.reader = new ReadSkillFileTool(this.catalog, init.maxReadBytes);
    this.runner = init.scripts
      ? scriptRunner(new RunSkillScriptTool(this.catalog, init.scripts), init.scripts)
      : undefined;
    for (const skill of init.skills) {
      const activate = Tool.create(skill.name, skill.description, (_input, context) =>
        this.activate(skill, context),
      );
      this.activators.set(skill.name, new OneShotPerLoopTool(activate, ADVICE));
    }
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    this.records.record(context, input, undefined);
    const requested = toolParams(input).skill;
    const name = typeof requested === "string" ? requested.trim() : "";
    const activator = this.activators.get(name);
    if (!activator) {
      const names = this.skills.map((skill) => skill.name).join(", ");
      return ToolResult.error(
        name === ""
          ? `Name the skill to activate: {"skill": "<name>"}, one of: ${names}.`
          : `There is no skill named '${name}'. Skills: ${names}.`,
      );
    }
    // Not gated: the activator is ours, takes no arguments and needs no approval (the facade call itself was gated).
    const result = await activator.call("{}", context, options);
    // Also on a repeat: a loop id shared by several loops starts each with the facade alone, and
    // the skill's tools must come back; where they are already offered, appending changes nothing.
    if (this.catalog.activations.isActive(context, name)) {
      const skill = this.catalog.skills.get(name) as Skill;
      const tools = await this.toolsFor(skill);
      this.records.record(context, input, (offered) => ({
        tools,
        guide: this.offeredAs(offered),
        exclusive: false,
      }));
    }
    return result;
  }

  /** Every tool an activation may append: `read_skill_file`, `run_skill_script` (with `runScripts`), the allowed tools. */
  get innerTools(): readonly Tool[] {
    return [this.reader, ...(this.runner ? [this.runner] : []), ...this.allowed.values()];
  }

  /** The same tools whatever the process. */
  innerToolsFor(_process?: AmbientProcess): readonly Tool[] {
    return this.innerTools;
  }

  /** What this facade's latest call with the input in the call's loop unfolded. */
  unfoldingFor(call: UnfoldingCall): Unfolding | undefined {
    return this.records.find(call);
  }

  /** Names the skills activated in a stopped loop among its kept states (the loop layer's `ResumableState`). */
  get resumeKey(): string {
    return `skills:${this.definition.name}`;
  }

  /** The skills activated in the context's loop: a loop stopped for a person keeps them. */
  captureState(context: ToolCallContext): readonly string[] | undefined {
    const active = this.catalog.activations.active(context);
    return active.length === 0 ? undefined : active;
  }

  /** The resumed loop's skills were activated before the wait: their files stay readable, a repeat answers `ALREADY LOADED`. */
  restoreState(state: unknown, context: ToolCallContext): undefined {
    if (!Array.isArray(state)) return undefined;
    for (const name of state) {
      if (typeof name !== "string" || !this.catalog.skills.has(name)) continue;
      this.catalog.activations.activate(context, name);
      (this.activators.get(name) as OneShotPerLoopTool).restoreState(true, context);
    }
    return undefined;
  }

  /** This facade under the definition it was offered with (one wrapper per definition, so re-offering it changes nothing). */
  private offeredAs(offered: ToolDefinition): Tool {
    if (offered === this.definition) return this;
    let facade = this.offeredFacades.get(offered);
    if (!facade) {
      facade = new OfferedFacade(this, offered);
      this.offeredFacades.set(offered, facade);
    }
    return facade;
  }

  /** The tools activating `skill` offers: the file reader (folder skills), the script runner, the allowed tools. */
  private async toolsFor(skill: Skill): Promise<readonly Tool[]> {
    const tools: Tool[] = [];
    if (skill.folder !== undefined) {
      tools.push(this.reader);
      if (this.runner) {
        const listing = await listSkillFiles(skill.folder);
        if ([...listing.text, ...listing.binary].some((file) => file.startsWith("scripts/"))) {
          tools.push(this.runner);
        }
      }
    }
    for (const name of skill.allowedTools) {
      const tool = this.allowed.get(name);
      if (tool) tools.push(tool);
    }
    return tools;
  }

  /** The activation's answer: the instructions, then what the skill's folder holds and which tools it brings. */
  private async activate(skill: Skill, context: ToolCallContext): Promise<ToolResult> {
    const body = await skill.instructions();
    this.catalog.activations.activate(context, skill.name);
    const notes: string[] = [];
    if (skill.folder !== undefined) {
      const listing = await listSkillFiles(skill.folder);
      if (listing.text.length > 0) {
        notes.push(
          `Files of this skill (read with ${READ_SKILL_FILE} {"skill": "${skill.name}", "path": "<file>"}): ${listing.text.join(", ")}${listing.truncated ? ", …" : ""}.`,
        );
      }
      if (listing.binary.length > 0)
        notes.push(`Binary files (not readable as text): ${listing.binary.join(", ")}.`);
      const scripts = [...listing.text, ...listing.binary].filter((file) => file.startsWith("scripts/"));
      if (scripts.length > 0) {
        notes.push(
          this.runner
            ? `Run its scripts with ${RUN_SKILL_SCRIPT} {"skill": "${skill.name}", "script": "<file>", "args": [...]}.`
            : "Its scripts cannot be run here: read them if useful, and do their work yourself.",
        );
      }
    }
    const allowed = skill.allowedTools.filter((name) => this.allowed.has(name));
    if (allowed.length > 0) notes.push(`Tools this skill uses, now available: ${allowed.join(", ")}.`);
    return ToolResult.text(notes.length === 0 ? body : `${body}\n\n---\n${notes.join("\n")}`);
  }
}

/** The script tool, behind a person's approval unless the options say otherwise (safe by default). */
function scriptRunner(tool: RunSkillScriptTool, options: SkillScriptOptions): Tool {
  const approval = options.humanApproval ?? true;
  if (approval === false) return tool;
  return requireApproval(tool, {
    message: (input) => `Allow the skill script ${JSON.stringify(input)} to run?`,
    ...(approval === true ? {} : approval),
  });
}
