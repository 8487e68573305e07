// The MCP layer: MCP servers as tool groups and tools, and our tools and agents served over MCP.

export type { McpAuthorizationRedirect } from "./authorization-code-provider.js";
export type { McpAuthorizationResponse } from "./authorization-response.js";
export { type ToolGroupConfig, toolGroupsFromConfig } from "./config-tool-groups.js";
export {
  type CallToolResult,
  type GetPromptResult,
  type McpCallOptions,
  McpClient,
  type McpPromptInfo,
  type McpRequestOptions,
  type McpResourceInfo,
  type McpToolInfo,
  type ReadResourceResult,
} from "./mcp-client.js";
export { McpClients, type McpServerStartup, type McpServersHolder } from "./mcp-clients.js";
export type {
  McpElicitation,
  McpElicitationContext,
  McpElicitationHandler,
  McpElicitationResult,
} from "./mcp-elicitation.js";
export type { McpPlatformSupport } from "./mcp-platform-support.js";
export type { McpPrompt } from "./mcp-prompt.js";
export {
  type ListedMcpResource,
  listMcpResources,
  McpResourceReference,
  type McpResourceReferenceOptions,
} from "./mcp-resources.js";
export type { McpSamplingModel } from "./mcp-sampling.js";
export type {
  McpClientFeatures,
  McpConfigOptions,
  McpHttpServerConfig,
  McpOAuthAuthorizationCode,
  McpOAuthClientCredentials,
  McpRoot,
  McpServerConfig,
  McpServersConfig,
  McpStdioServerConfig,
  ResolvedMcpServerConfig,
} from "./mcp-server-config.js";
export { McpTool, type McpToolOptions, providerToolName, serverQualifiedToolName } from "./mcp-tool.js";
export { McpToolFactory, type McpToolFactoryOptions } from "./mcp-tool-factory.js";
export { McpToolGroup, type McpToolGroupOptions } from "./mcp-tool-group.js";
export type { McpClientsLike, McpToolFilter } from "./mcp-tool-loading.js";
export {
  DEFAULT_MCP_TIMEOUT_MS,
  expandVariables,
  resolveMcpServerConfig,
} from "./resolve-mcp-server-config.js";
// The served side (its own folder): createMcpServer, serveMcpOverHttp, serveMcpOverStdio and their types.
export {
  agentInputType,
  type CreateMcpServerOptions,
  createMcpServer,
  InMemoryMcpNonceStore,
  InMemoryMcpTaskStore,
  type McpCompleter,
  type McpHttpEndpoint,
  type McpInputRequest,
  type McpNonceStore,
  McpServerCall,
  type McpServerPrompt,
  type McpServerPromptArgument,
  type McpServerPromptMessage,
  type McpServerResource,
  type McpServerTasksOptions,
  type McpStdioEndpoint,
  type McpTask,
  type McpTaskCall,
  type McpTaskStatus,
  type McpTaskStore,
  type McpTaskSupport,
  type McpTaskTool,
  type ServeMcpOverHttpOptions,
  type ServeMcpOverStdioOptions,
  serveMcpOverHttp,
  serveMcpOverStdio,
} from "./serve/index.js";
export {
  type McpContextForwarding,
  ToolCallContextMcpMetaConverter,
} from "./tool-call-context-mcp-meta-converter.js";
