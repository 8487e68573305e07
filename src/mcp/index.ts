// The MCP layer: MCP servers as tool groups and tools, and our tools and agents served over MCP.

export type { McpAuthorizationRedirect } from "./authorization-code-provider.js";
export type { McpAuthorizationResponse } from "./authorization-response.js";
export { type ToolGroupConfig, toolGroupsFromConfig } from "./config-tool-groups.js";
export type { CreateMcpServerOptions } from "./create-mcp-server.js";
// The server side loads the MCP SDK on first use: these entry points are light.
export { agentInputType, createMcpServer, serveMcpOverHttp, serveMcpOverStdio } from "./lazy-mcp-server.js";
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
export {
  type ListedMcpResource,
  listMcpResources,
  type McpPrompt,
  McpResourceReference,
  type McpResourceReferenceOptions,
} from "./mcp-resources.js";
export type { McpSamplingModel } from "./mcp-sampling.js";
export { McpServerCall } from "./mcp-server-call.js";
export {
  DEFAULT_MCP_TIMEOUT_MS,
  expandVariables,
  type McpClientFeatures,
  type McpConfigOptions,
  type McpHttpServerConfig,
  type McpOAuthAuthorizationCode,
  type McpOAuthClientCredentials,
  type McpRoot,
  type McpServerConfig,
  type McpServersConfig,
  type McpStdioServerConfig,
  type ResolvedMcpServerConfig,
  resolveMcpServerConfig,
} from "./mcp-server-config.js";
export { McpTool, type McpToolOptions, providerToolName, serverQualifiedToolName } from "./mcp-tool.js";
export { McpToolFactory, type McpToolFactoryOptions } from "./mcp-tool-factory.js";
export { McpToolGroup, type McpToolGroupOptions } from "./mcp-tool-group.js";
export type { McpClientsLike, McpToolFilter } from "./mcp-tool-loading.js";
export type { McpHttpEndpoint, ServeMcpOverHttpOptions } from "./serve-mcp-over-http.js";
export type { McpStdioEndpoint, ServeMcpOverStdioOptions } from "./serve-mcp-over-stdio.js";
export type { McpServerPrompt, McpServerPromptArgument, McpServerPromptMessage } from "./served-prompts.js";
export type { McpCompleter, McpServerResource } from "./served-resources.js";
export {
  type McpContextForwarding,
  ToolCallContextMcpMetaConverter,
} from "./tool-call-context-mcp-meta-converter.js";
