import { AgentProcess } from "../platform/agent-process.js";
import { InputSchema } from "../tool/input-schema.js";
import { Logger } from "../tool/logger.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { textParam, toolParams } from "../tool/tool-params.js";
import { ToolResult } from "../tool/tool-result.js";

/** Checks its own arguments, so the chapter's in-band texts reach the model (see `ToolMetadata.lenientArguments`). */
const LENIENT = /* @__PURE__ */ ToolMetadata.create({ lenientArguments: true });

/**
 * The specification's `ProgressTool`: lets the LLM report what it is doing
 * during long work, as a transient progress event on the process's output channel.
 */
export const ProgressTool = {
  /** The tool's name. */
  NAME: "progress",
  /**
   * The tool `progress(status)`. In a process it sends a `progress` event to
   * the process's output channel and answers `Progress reported: <status>`
   * (a failing channel fails the call); outside one it answers
   * `Progress noted (no active process to display it).`
   */
  create(): Tool {
    return Tool.of(
      ProgressTool.NAME,
      "Report progress to the user. Call this during long-running work to show what you're doing.",
      InputSchema.of(Param.string("status", "Short progress message describing what you're currently doing")),
      LENIENT,
      async (input) => {
        const status = textParam(toolParams(input), "status");
        if (status === undefined) return ToolResult.error("Missing 'status' parameter");
        const process = AgentProcess.current();
        if (!process) {
          Logger.current().warn(`progress tool called outside of an agent process — ignoring: ${status}`);
          return ToolResult.text("Progress noted (no active process to display it).");
        }
        await process.processOptions.outputChannel.send({
          type: "progress",
          processId: process.id,
          message: status,
        });
        return ToolResult.text(`Progress reported: ${status}`);
      },
    );
  },
};
