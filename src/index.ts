// The public API of embabel-ts. Each layer's block lists its public names
// explicitly; adding a name here is an API decision. No `export *`.
// Over 400 lines: a list of exports, one block per layer, and nothing else.

export type { BlackboardUpdater } from "./errors/index.js";
// --- errors ---
export { ConfigurationError, EmbabelError, ReplanRequested, ToolControlFlowSignal } from "./errors/index.js";
export type {
  ArtifactReplanDecider,
  ArtifactResult,
  AudioContent,
  ArtifactSinkingOptions,
  ArtifactSinkLike,
  BlackboardTarget,
  ErrorResult,
  FunctionToolOptions,
  ImageContent,
  JsonSchema,
  LlmToolInput,
  LlmToolOptions,
  LogFields,
  LoggerLevel,
  LoopMemoOptions,
  NestedTool,
  OneShotPerLoopOptions,
  ParamOptions,
  ParamType,
  ReplanContentUpdater,
  ReplanContext,
  ReplanDecider,
  ReplanDecision,
  ResourceContent,
  StderrLoggerOptions,
  TextResult,
  ToolApproval,
  ToolCallContextInit,
  ToolCallOptions,
  ToolDefinition,
  ToolHandler,
  ToolMetadataInit,
  TypedToolFunction,
  TypedToolOptions,
  TypeLike,
  TypeOf,
  UnfoldingCall,
  UnfoldingSource,
} from "./tool/index.js";
// --- tool ---
export {
  AbstractTool,
  ArtifactSink,
  ArtifactSinkingTool,
  BlackboardSink,
  ConditionalReplanningTool,
  CompositeSink,
  DelegatingTool,
  DomainType,
  domainType,
  FunctionTool,
  InputSchema,
  isNestedTool,
  ListSink,
  Logger,
  LoopMemo,
  llmTool,
  MethodTool,
  normalizeToolName,
  OneShotPerLoopTool,
  Param,
  ReplanningTool,
  Tool,
  ToolCallContext,
  ToolContent,
  ToolMetadata,
  ToolResult,
  TypedTool,
  TypeParseError,
  TypeToken,
  typeNameOf,
  Unfolding,
  validateToolName,
} from "./tool/index.js";

// --- llm, loop ---
export { MaxIterationsExceededError, ToolNotFoundError } from "./errors/index.js";
export type {
  LastToolCall,
  LlmCallSettings,
  LlmUsage,
  ResumableState,
  ToolInjectionContext,
  ToolLoopEvent,
  ToolLoopOptions,
  ToolLoopResult,
} from "./loop/index.js";
export {
  ChainedToolInjectionStrategy,
  runToolLoop,
  ToolInjectionResult,
  ToolInjectionStrategy,
  UnfoldingToolInjectionStrategy,
} from "./loop/index.js";
export type {
  EmbeddingModelChoice,
  EmbeddingModelEntry,
  EmbeddingModelRegistryOptions,
  LlmOptionsInit,
  ModelEntry,
  ModelIdOptions,
  ModelPrice,
  ModelRegistryOptions,
  UsageRecord,
} from "./llm/index.js";
export {
  asEmbeddingModelV3,
  asLanguageModelV3,
  EmbeddingModelRegistry,
  LlmOptions,
  ModelRegistry,
  modelFromId,
  PriceTable,
  UsageLedger,
} from "./llm/index.js";

// --- prompt ---
export { StructuredOutputError } from "./errors/structured-output-error.js";
export type {
  AssistantMessage,
  GeneratedToolCall,
  GenerateResult,
  GenerateStep,
  LlmInteractionCall,
  ObjectCreator,
  PromptCallOptions,
  PromptRunnerServices,
  SkillSet,
  TextStream,
  ToolGroupDescription,
  ToolGroupMetadata,
  ToolGroupOptions,
  ToolGroupRequirement,
  ToolGroupResolver,
  ToolGroupSpec,
  ToolNameFilter,
  ToolNamingStrategy,
  UserMessage,
} from "./prompt/index.js";
export {
  CoreToolGroups,
  LlmInteractionHost,
  LlmReference,
  Message,
  PromptRunner,
  resolveToolGroup,
  ToolGroup,
  ToolGroupPermission,
  ToolGroupRegistry,
  ToolObject,
} from "./prompt/index.js";

// --- platform ---
export { type BudgetKind, BudgetExceededError } from "./errors/budget-exceeded-error.js";
export { TerminateAction } from "./errors/terminate-action.js";
export { TerminateAgent } from "./errors/terminate-agent.js";
export type {
  AchievesGoalOptions,
  ActionInit,
  ActionInvocation,
  ActionOptions,
  ActionOutcome,
  AgentAction,
  AgentCondition,
  AgentGoal,
  AgentInit,
  AgentLike,
  AgentOptions,
  AgentPlatformApi,
  AgentPlatformOptions,
  AgentProcessEvent,
  ConditionOptions,
  ConsoleOutputChannelOptions,
  EmbeddingCall,
  EmbedOptions,
  GoalInit,
  GoapAction,
  GoapGoal,
  GoapNoPlan,
  GoapPlan,
  LogLevel,
  ModelUsed,
  OperationContext,
  OutputChannelEvent,
  PlanningEvent,
  PlanOptions,
  ProcessEventBase,
  ProcessLifecycleEvent,
  ProcessListener,
  ProcessOptionsInit,
  RunProcessOptions,
  SelectedType,
  ToolStats,
  TypeSelector,
  VerbosityInit,
  WorldStateInit,
} from "./platform/index.js";
export {
  Agent,
  AgentPlatform,
  AgentProcess,
  AgentProcessStatus,
  AgentRegistry,
  achievesGoal,
  action,
  agent,
  Blackboard,
  Budget,
  ConsoleOutputChannel,
  condition,
  createAgentPlatform,
  defineAction,
  defineAgent,
  describeEvent,
  formatOutputEvent,
  GoapPlanner,
  hasRun,
  hasType,
  ListOutputChannel,
  OutputChannel,
  ProcessOptions,
  parseCondition,
  Verbosity,
} from "./platform/index.js";
// platform: runners (in-process by default) and process checkpoints
export type {
  BlackboardSnapshot,
  InProcessRunnerOptions,
  ProcessCheckpoint,
  ProcessHandle,
  ProcessRunner,
} from "./platform/index.js";
export { InProcessRunner } from "./platform/index.js";
export { CheckpointError, ProcessLostError, SerializationError } from "./errors/index.js";
// platform: waiting for a person (approvals, confirmations, forms)
export type {
  ApprovalResponse,
  AwaitableKind,
  AwaitableRequest,
  AwaitableResponse,
  ConfirmationResponse,
  RespondOptions,
  WaitForOptions,
  WaitState,
} from "./platform/index.js";
export { WaitFor } from "./platform/index.js";
export type { PendingRequest } from "./errors/index.js";
export { ApprovalUnavailableError, AwaitingResponse, InvalidResponseError } from "./errors/index.js";
export type { ApprovalAnswer, ApprovalCallback, ApprovalQuestion } from "./tool/index.js";

// --- progressive ---
export type {
  CategoryUnfoldingToolOptions,
  SearchableToolOptions,
  ToolSearchHit,
  ToolSearchOptions,
  ToolSelection,
  ToolSelector,
  ToolsByCategory,
  UnfoldingToolOptions,
  UnfoldingToolsOptions,
} from "./progressive/index.js";
export {
  ProgressiveTool,
  SearchableTool,
  SearchableToolGroup,
  ToolSearchIndex,
  UnfoldingTool,
  unfoldingReference,
  unfoldingTools,
} from "./progressive/index.js";

// --- skills ---
export type {
  SkillFrontMatter,
  SkillInit,
  SkillProblem,
  SkillScriptCall,
  SkillScriptOptions,
  SkillsOptions,
} from "./skills/index.js";
export {
  ReadSkillFileTool,
  RunSkillScriptTool,
  SKILLS_TOOL_GROUP_ROLE,
  Skill,
  Skills,
  SkillsTool,
} from "./skills/index.js";

// --- subagent ---
export type {
  AgentToolOptions,
  AssetAddingToolOptions,
  AssetFilter,
  GoalToolOptions,
  ProcessOptionsCreator,
  SubagentBuilder,
} from "./subagent/index.js";
export {
  AbstractAssetTracker,
  AgentTool,
  Asset,
  AssetAddingTool,
  AssetTracker,
  ENTRY_POINT_OPTIONS,
  GoalTool,
  InMemoryAssetTracker,
  Subagent,
  SubagentTool,
  sanitizedGoalName,
} from "./subagent/index.js";

// --- chaining (loop layer) ---
export type { DomainToolSource, ToolChaining, ToolChainingSession } from "./chaining/index.js";
export {
  DomainToolPlaceholder,
  DomainToolPredicate,
  DomainToolTracker,
  ToolChainingConfig,
  ToolChainingInjectionStrategy,
} from "./chaining/index.js";

// --- agentic ---
export type {
  AgenticSession,
  AgenticSystemPromptCreator,
  PlaybookContext,
  Prerequisite,
  StateAwareSystemPromptCreator,
  StatesInit,
  UnlockCondition,
} from "./agentic/index.js";
export {
  AgenticTool,
  defaultAgenticSystemPrompt,
  isAgenticTool,
  PlaybookTool,
  PlaybookToolRegistration,
  SimpleAgenticTool,
  StateMachineTool,
  StateToolsBuilder,
} from "./agentic/index.js";

// --- code mode ---
export type { CodeModeOptions } from "./codemode/index.js";
export { CodeModeTool } from "./codemode/index.js";

// --- builtins ---
export type { BlackboardEntryFormatter, HasContent, HasInfoString } from "./builtins/index.js";
export {
  AgentProcessTools,
  BlackboardTools,
  CommunicateTool,
  DefaultBlackboardEntryFormatter,
  NO_AGENT_PROCESS,
  NO_BLACKBOARD,
  ProgressTool,
} from "./builtins/index.js";

// --- trace ---
export {
  type ActionNode,
  type EventNode,
  jsonSafe,
  type LlmCallDetail,
  type LlmNode,
  type LlmRetry,
  type PlanNode,
  type ProcessNode,
  parseTrace,
  REDACTED,
  type RunView,
  readTrace,
  redactSecrets,
  redactSecretsDeep,
  TRACE_FORMAT,
  TRACE_VERSION,
  type ToolNode,
  type Trace,
  TraceFileReader,
  type TraceFileReaderOptions,
  TraceFormatError,
  type TraceHeader,
  type TraceNode,
  type TraceRecord,
  TraceRecorder,
  type TraceRecorderOptions,
  TraceSink,
  type TraceToolDefinition,
  TraceTree,
  type TraceUsage,
  UNREADABLE_RECORD,
} from "./trace/index.js";

// --- cli ---
export type { ExampleDefinition } from "./cli/index.js";
export {
  ProcessReporter,
  type ProcessReporterOptions,
  type RunTotals,
  renderTrace,
  type TraceRendererOptions,
  traceRenderer,
} from "./cli/index.js";

// --- mcp ---
// `AgentPlatform` (exported with the platform) gets `mcpServers`, config-defined
// `toolGroups` and `searchableAbove` from this layer, composed in (the platform
// layer never imports mcp: src/platform/platform-mcp.ts).
export { McpServerError } from "./errors/index.js";
export type {
  CallToolResult,
  CreateMcpServerOptions,
  McpAuthorizationRedirect,
  McpAuthorizationResponse,
  McpCallOptions,
  McpClientFeatures,
  McpClientsLike,
  McpCompleter,
  McpConfigOptions,
  McpContextForwarding,
  McpElicitation,
  McpElicitationContext,
  McpElicitationHandler,
  McpElicitationResult,
  McpHttpEndpoint,
  McpHttpServerConfig,
  McpOAuthAuthorizationCode,
  McpOAuthClientCredentials,
  McpPrompt,
  McpPromptInfo,
  McpRequestOptions,
  McpResourceInfo,
  McpResourceReferenceOptions,
  McpRoot,
  McpSamplingModel,
  McpServerConfig,
  McpServerPrompt,
  McpServerPromptArgument,
  McpServerPromptMessage,
  McpServerResource,
  McpServerTasksOptions,
  McpServersConfig,
  McpServerStartup,
  McpServersHolder,
  McpInputRequest,
  McpNonceStore,
  McpStdioEndpoint,
  McpStdioServerConfig,
  McpTask,
  McpTaskCall,
  McpTaskStatus,
  McpTaskStore,
  McpTaskSupport,
  McpTaskTool,
  McpToolFactoryOptions,
  McpToolFilter,
  McpToolGroupOptions,
  McpToolInfo,
  McpToolOptions,
  ListedMcpResource,
  ReadResourceResult,
  GetPromptResult,
  ServeMcpOverHttpOptions,
  ServeMcpOverStdioOptions,
  ToolGroupConfig,
} from "./mcp/index.js";
export {
  agentInputType,
  createMcpServer,
  InMemoryMcpNonceStore,
  InMemoryMcpTaskStore,
  McpClient,
  McpClients,
  McpServerCall,
  McpTool,
  McpToolFactory,
  McpResourceReference,
  McpToolGroup,
  listMcpResources,
  serveMcpOverHttp,
  serveMcpOverStdio,
  ToolCallContextMcpMetaConverter,
  toolGroupsFromConfig,
} from "./mcp/index.js";
