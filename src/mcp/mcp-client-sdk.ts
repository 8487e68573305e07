// The MCP SDK's client side (and our stdio transport over it), gathered in one
// module that only load-mcp-sdk.ts imports, with `import()`, when the first MCP
// server is connected. Never import this file statically: importing the
// library must not load the SDK, its zod schemas, ajv or `child_process`.

// node:http's reason phrases, for messages about HTTP errors: here, so a bundle without MCP (a Worker) imports no node:http.
export { STATUS_CODES } from "node:http";
export { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
export { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
export {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
export { ProcessGroupStdioTransport } from "./process-group-stdio-transport.js";
