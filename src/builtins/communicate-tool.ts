import { AgentProcess } from "../platform/agent-process.js";
import { Message } from "../prompt/message.js";
import { InputSchema } from "../tool/input-schema.js";
import { Logger } from "../tool/logger.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { textParam, toolParams } from "../tool/tool-params.js";
import { ToolResult } from "../tool/tool-result.js";

/** Checks its own arguments, so the chapter's in-band texts reach the model (see `ToolMetadata.lenientArguments`). */
const LENIENT = /* @__PURE__ */ ToolMetadata.create({ lenientArguments: true });

/** What `communicate` answers for an empty message (nothing is sent). */
export const EMPTY_MESSAGE = "Cannot send an empty message: give 'message' the text to show the user.";

/**
 * The specification's `CommunicateTool`: lets the LLM send the user a
 * permanent message (an assistant chat message on the process's output channel).
 */
export const CommunicateTool = {
  /** The tool's name. */
  NAME: "communicate",
  /**
   * The tool `communicate(message)`. In a process it sends a `message` event
   * with an assistant message to the process's output channel and answers
   * `Message sent to user.`; an empty message sends nothing and is an error,
   * and a failing channel fails the call. Outside a process it answers
   * `Message noted (no active process to deliver it).`
   */
  create(): Tool {
    return Tool.of(
      CommunicateTool.NAME,
      "Send a permanent message to the user. Use this to report results, share links (e.g., PR URLs), or inform the user of important outcomes. Unlike progress, this creates a visible chat message.",
      InputSchema.of(Param.string("message", "The message to send to the user")),
      LENIENT,
      async (input) => {
        const message = textParam(toolParams(input), "message");
        if (message === undefined) return ToolResult.error("Missing 'message' parameter");
        const process = AgentProcess.current();
        if (!process) {
          Logger.current().warn(`communicate tool called outside of an agent process — ignoring: ${message}`);
          return ToolResult.text("Message noted (no active process to deliver it).");
        }
        if (message.trim() === "") return ToolResult.error(EMPTY_MESSAGE);
        await process.processOptions.outputChannel.send({
          type: "message",
          processId: process.id,
          message: Message.assistant(message),
        });
        return ToolResult.text("Message sent to user.");
      },
    );
  },
};
