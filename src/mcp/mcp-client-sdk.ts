// The MCP SDK's client side (v2, `@modelcontextprotocol/client`, and our stdio
// transport over it), gathered in one module that only load-mcp-sdk.ts
// imports, with `import()`, when the first MCP server is connected. Never
// import this file statically: importing the library must not load the SDK,
// its zod schemas, ajv or `child_process`.

// node:http's reason phrases, for messages about HTTP errors: here, so a bundle without MCP (a Worker) imports no node:http.
export { STATUS_CODES } from "node:http";
export {
  ClientCredentialsProvider,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  specTypeSchemas,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
export { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
export { CompleteByDefaultClient as Client } from "./complete-by-default-client.js";
export { ProcessGroupStdioTransport } from "./process-group-stdio-transport.js";
