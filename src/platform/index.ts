// The platform layer: agents, GOAP planning, processes, blackboards, budgets, output channels.

export type { ActionInvocation } from "./action-invocation.js";
export {
  Agent,
  type AgentAction,
  type AgentCondition,
  type AgentGoal,
  type AgentLike,
} from "./agent.js";
export {
  type AchievesGoalOptions,
  type ActionOptions,
  type AgentOptions,
  achievesGoal,
  action,
  agent,
  type ConditionOptions,
  condition,
} from "./agent-decorators.js";
export { hasRun, hasType, parseCondition } from "./agent-planning.js";
export { AgentPlatform, type AgentPlatformOptions, createAgentPlatform } from "./agent-platform.js";
export type { AgentPlatformApi } from "./agent-platform-api.js";
export { AgentProcess } from "./agent-process.js";
export { AgentProcessStatus } from "./agent-process-status.js";
export { AgentRegistry } from "./agent-registry.js";
export type {
  ApprovalResponse,
  AwaitableKind,
  AwaitableRequest,
  AwaitableResponse,
  ConfirmationResponse,
  RespondOptions,
} from "./awaitable.js";
export {
  Blackboard,
  type BlackboardSnapshot,
  type SelectedType,
  type TypeSelector,
} from "./blackboard.js";
export { Budget } from "./budget.js";
export {
  type ActionInit,
  type AgentInit,
  defineAction,
  defineAgent,
  type GoalInit,
} from "./define-agent.js";
export { describeEvent } from "./describe-event.js";
export type { EmbedOptions } from "./embed-options.js";
export { InProcessRunner, type InProcessRunnerOptions } from "./in-process-runner.js";
export type { OperationContext } from "./operation-context.js";
export {
  ConsoleOutputChannel,
  type ConsoleOutputChannelOptions,
  formatOutputEvent,
  ListOutputChannel,
  type LogLevel,
  OutputChannel,
  type OutputChannelEvent,
} from "./output-channel.js";
export {
  type GoapAction,
  type GoapGoal,
  type GoapNoPlan,
  type GoapPlan,
  GoapPlanner,
  type PlanOptions,
  type WorldStateInit,
} from "./planning/goap-planner.js";
export type { ProcessCheckpoint } from "./process-checkpoint.js";
export type {
  ActionOutcome,
  AgentProcessEvent,
  PlanningEvent,
  ProcessEventBase,
  ProcessLifecycleEvent,
  ProcessListener,
} from "./process-event.js";
export { ProcessOptions, type ProcessOptionsInit } from "./process-options.js";
export type { ProcessHandle, ProcessRunner, RunProcessOptions } from "./process-runner.js";
export type { EmbeddingCall, ModelUsed } from "./process-usage.js";
export type { WaitState } from "./process-waits.js";
export type { ToolStats } from "./tool-statistics.js";
export { Verbosity, type VerbosityInit } from "./verbosity.js";
export { WaitFor, type WaitForOptions } from "./wait-for.js";
