import type { AgentProcess } from "../platform/agent-process.js";
import { formatCount, formatDuration, formatUsd } from "./report-format.js";

// The texts the `agent_process` tools answer with (the specification's
// wording and layout, lines joined by `\n`).

/** `process_status`: id, status, running time, goal, parent. */
export function statusReport(process: AgentProcess): string {
  return [
    `Process ID: ${process.id}`,
    `Status: ${process.status.toUpperCase()}`,
    `Running time: ${formatDuration(process.runningTimeMs)}`,
    process.goal ? `Goal: ${process.goal.name}` : "No goal (utility process)",
    `Parent ID: ${process.parentId ?? "none (root process)"}`,
  ].join("\n");
}

/** `process_budget`: cost, token and action limits with what is used and what remains. */
export function budgetReport(process: AgentProcess): string {
  const budget = process.processOptions.budget;
  const cost = process.costUsd;
  const tokens = process.usage.inputTokens + process.usage.outputTokens;
  const actions = process.history.length;
  return [
    "Budget Status:",
    "",
    `Cost limit: $${formatUsd(budget.cost, 4)}`,
    `  Used: $${formatUsd(cost, 4)}`,
    `  Remaining: $${formatUsd(budget.cost - cost, 4)}`,
    "",
    `Token limit: ${formatCount(budget.tokens)}`,
    `  Used: ${formatCount(tokens)}`,
    `  Remaining: ${formatCount(budget.tokens - tokens)}`,
    "",
    `Action limit: ${budget.actions}`,
    `  Used: ${actions}`,
    `  Remaining: ${budget.actions - actions}`,
  ].join("\n");
}

/** `process_cost`: total cost, LLM and embedding calls, tokens. */
export function costReport(process: AgentProcess): string {
  const { inputTokens, outputTokens } = process.usage;
  return [
    "Cost and Usage:",
    "",
    `Total cost: $${formatUsd(process.costUsd, 6)}`,
    `LLM invocations: ${process.llmInvocations}`,
    `Embedding invocations: ${process.embeddingInvocations}`,
    "",
    "Tokens used:",
    `  Prompt tokens: ${formatCount(inputTokens)}`,
    `  Completion tokens: ${formatCount(outputTokens)}`,
    `  Total tokens: ${formatCount(inputTokens + outputTokens)}`,
  ].join("\n");
}

/** `process_history`: the actions run, numbered, with their durations. */
export function historyReport(process: AgentProcess): string {
  const history = process.history;
  if (history.length === 0) return "No actions have been executed yet.";
  return [
    `Action history (${history.length} action(s)):`,
    "",
    ...history.map(
      (action, index) => `${index + 1}. ${action.actionName} (${formatDuration(action.durationMs)})`,
    ),
  ].join("\n");
}

/** `process_tools_stats`: calls per tool, most called first. */
export function toolStatsReport(process: AgentProcess): string {
  const stats = [...process.toolStats];
  if (stats.length === 0) return "No tools have been called yet.";
  const total = stats.reduce((sum, [, tool]) => sum + tool.calls, 0);
  const byCalls = stats.sort(([, a], [, b]) => b.calls - a.calls);
  return [
    "Tool Usage Statistics:",
    "",
    `Total tool calls: ${total}`,
    `Unique tools used: ${stats.length}`,
    "",
    "Calls by tool:",
    ...byCalls.map(([name, tool]) => `  ${name}: ${tool.calls} calls`),
  ].join("\n");
}

/** `process_models`: every language and embedding model called, in order of first use. */
export function modelsReport(process: AgentProcess): string {
  const models = process.modelsUsed;
  if (models.length === 0) return "No models have been used yet.";
  return [
    `Models used (${models.length}):`,
    "",
    ...models.map((model) => `- ${model.modelId} (${model.provider})`),
  ].join("\n");
}
