import { AgentProcess } from "../platform/agent-process.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import {
  budgetReport,
  costReport,
  historyReport,
  modelsReport,
  statusReport,
  toolStatsReport,
} from "./process-reports.js";

/** What every `agent_process` tool answers outside an agent process. */
export const NO_AGENT_PROCESS = "No agent process available. These tools require an active agent context.";

function processTool(name: string, description: string, report: (process: AgentProcess) => string): Tool {
  return Tool.of(name, description, InputSchema.empty(), ToolMetadata.DEFAULT, async () => {
    const process = AgentProcess.current();
    return ToolResult.text(process ? report(process) : NO_AGENT_PROCESS);
  });
}

/**
 * The specification's `AgentProcessTools`: the process's view of itself
 * (status, budget, cost, history, tool and model use) for the LLM.
 */
export const AgentProcessTools = {
  /**
   * The UnfoldingTool `agent_process`, unfolding into `process_status`,
   * `process_budget`, `process_cost`, `process_history`,
   * `process_tools_stats` and `process_models`. Each reads the current
   * process (`AgentProcess.current()`) when called.
   */
  create(): UnfoldingTool {
    return UnfoldingTool.of(
      "agent_process",
      "Access information about the current agent process including status, budget, cost, and history. Invoke to see available operations.",
      [
        processTool(
          "process_status",
          "Get the current process status, ID, running time, and goal information",
          statusReport,
        ),
        processTool(
          "process_budget",
          "Get the budget limits and current usage against those limits",
          budgetReport,
        ),
        processTool("process_cost", "Get detailed cost and token usage information", costReport),
        processTool("process_history", "Get the history of actions taken in this process", historyReport),
        processTool(
          "process_tools_stats",
          "Get statistics about tool usage in this process",
          toolStatsReport,
        ),
        processTool(
          "process_models",
          "Get information about which models (LLM and embedding) have been used",
          modelsReport,
        ),
      ],
      {
        childToolUsageNotes:
          "Use process_status for current state and runtime. Use process_budget to check limits. Use process_cost to see spending.",
      },
    );
  },
};
