// The served side of MCP: our tools and agents offered as an MCP server, over HTTP or stdio.

export type { CreateMcpServerOptions } from "./create-mcp-server.js";
// The server side loads the MCP SDK on first use: these entry points are light.
export { agentInputType, createMcpServer, serveMcpOverHttp, serveMcpOverStdio } from "./lazy-mcp-server.js";
export { InMemoryMcpNonceStore, type McpNonceStore } from "./mcp-nonce-store.js";
export { type McpInputRequest, McpServerCall } from "./mcp-server-call.js";
export type { McpHttpEndpoint, ServeMcpOverHttpOptions } from "./serve-mcp-over-http.js";
export type { McpStdioEndpoint, ServeMcpOverStdioOptions } from "./serve-mcp-over-stdio.js";
export type { McpServerPrompt, McpServerPromptArgument, McpServerPromptMessage } from "./served-prompts.js";
export type { McpCompleter, McpServerResource } from "./served-resources.js";
export type { McpServerTasksOptions, McpTaskCall, McpTaskSupport, McpTaskTool } from "./served-tasks.js";
export { InMemoryMcpTaskStore, type McpTask, type McpTaskStatus, type McpTaskStore } from "./task-store.js";
