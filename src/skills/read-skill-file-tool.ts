import { readFile } from "node:fs/promises";
import { AbstractTool } from "../tool/abstract-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import type { ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { toolParams } from "../tool/tool-params.js";
import { ToolResult } from "../tool/tool-result.js";
import { activeSkill, type SkillCatalog } from "./skill-catalog.js";
import { listSkillFiles, looksBinary, resolveSkillPath, sniff } from "./skill-files.js";

/** The name the model sees. */
export const READ_SKILL_FILE = "read_skill_file";

/** @default 262144 (256 KiB) */
export const DEFAULT_MAX_READ_BYTES = 256 * 1024;

/**
 * `read_skill_file`: reads a text file from the folder of an active skill
 * (`references/…`, `assets/…`, `scripts/…`). Refused in-band: skills not
 * active, paths outside the folder (absolute, `..`, links leading out), and
 * binary files. A refusal lists the files that may be read.
 */
export class ReadSkillFileTool extends AbstractTool {
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;
  readonly definition: ToolDefinition;

  constructor(
    private readonly catalog: SkillCatalog,
    private readonly maxBytes: number = DEFAULT_MAX_READ_BYTES,
  ) {
    super();
    this.definition = toolDefinition(
      READ_SKILL_FILE,
      `Reads a text file from the folder of a skill you activated with '${catalog.facadeName}'. The activation listed the files; paths are relative to the skill's folder, as its instructions write them (e.g. references/guide.md).`,
      InputSchema.of(
        Param.string("skill", "The name of the active skill"),
        Param.string("path", "The file's path relative to the skill's folder"),
      ),
    );
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    _options?: ToolCallOptions,
  ): Promise<ToolResult> {
    const fields = toolParams(input);
    const skill = activeSkill(this.catalog, context, fields.skill);
    if (ToolResult.isToolResult(skill)) return skill;
    const folder = skill.folder;
    if (folder === undefined) {
      return ToolResult.error(`The skill '${skill.name}' was written in code and has no files to read.`);
    }
    const path = typeof fields.path === "string" ? fields.path : "";
    const resolved = await resolveSkillPath(folder, path);
    if (resolved.kind === "refused") {
      return ToolResult.error(
        `Cannot read '${path}' from the skill '${skill.name}': ${resolved.reason}. ${await readableFiles(folder)}`,
      );
    }
    const start = await sniff(resolved.path, this.maxBytes);
    if (looksBinary(start.bytes, start.isPrefix)) {
      return ToolResult.error(
        `'${resolved.relative}' in the skill '${skill.name}' is a binary file; ${READ_SKILL_FILE} reads text files only. ${await readableFiles(folder)}`,
      );
    }
    if (!start.isPrefix) return ToolResult.text(await readFile(resolved.path, "utf8"));
    const decoded = new TextDecoder("utf-8").decode(start.bytes);
    let end = decoded.length;
    while (end > 0 && decoded[end - 1] === "\uFFFD") end--;
    const text = decoded.slice(0, end);
    return ToolResult.text(
      `${text}\n\n[Truncated: only the first ${this.maxBytes} bytes of '${resolved.relative}' are shown.]`,
    );
  }
}

/** "Files you can read: …" for a refusal. */
async function readableFiles(folder: string): Promise<string> {
  const listing = await listSkillFiles(folder);
  return listing.text.length === 0
    ? "This skill has no text files to read."
    : `Files you can read: ${listing.text.join(", ")}.`;
}
