// Loads the MCP SDK on first use. Importing the library loads none of it: the
// client side arrives when the first server is connected, the server side when
// the first MCP server is created or served. New MCP code that needs an SDK
// value (a class, a schema, an enum) gets it from here — `await
// loadMcpClientSdk()` on a path that connects, `mcpClientSdk()` on a path that
// runs only once connected — and imports SDK *types* only (`import type`).

import type * as ClientSdk from "./mcp-client-sdk.js";
import type * as CreateMcpServerModule from "./serve/create-mcp-server.js";
import type * as ServeMcpOverHttpModule from "./serve/serve-mcp-over-http.js";
import type * as ServeMcpOverStdioModule from "./serve/serve-mcp-over-stdio.js";

/** The SDK's client classes, transports and schemas that `McpClient` uses. */
export type McpClientSdk = typeof ClientSdk;

let clientSdk: McpClientSdk | undefined;
let loadingClientSdk: Promise<McpClientSdk> | undefined;

/** The client side of the SDK, imported once (a failed import is tried again on the next call). */
export function loadMcpClientSdk(): Promise<McpClientSdk> {
  loadingClientSdk ??= import("./mcp-client-sdk.js").then(
    (sdk) => {
      clientSdk = sdk;
      return sdk;
    },
    (error: unknown) => {
      loadingClientSdk = undefined;
      throw error;
    },
  );
  return loadingClientSdk;
}

/** The client side of the SDK if it is loaded, else `undefined`. */
export function loadedMcpClientSdk(): McpClientSdk | undefined {
  return clientSdk;
}

/** The client side of the SDK, on a path that runs only after a connection was made (so it is loaded). */
export function mcpClientSdk(): McpClientSdk {
  if (!clientSdk) throw new Error("Internal error: the MCP SDK was used before it was loaded.");
  return clientSdk;
}

/** The server side: `createMcpServer`, `serveMcpOverHttp`, `serveMcpOverStdio` and what they import. */
export interface McpServerModules {
  readonly create: typeof CreateMcpServerModule;
  readonly http: typeof ServeMcpOverHttpModule;
  readonly stdio: typeof ServeMcpOverStdioModule;
}

let serverModules: McpServerModules | undefined;
let loadingServerModules: Promise<McpServerModules> | undefined;

/** The server side of the SDK and our server modules, imported once. */
export function loadMcpServerModules(): Promise<McpServerModules> {
  loadingServerModules ??= Promise.all([
    import("./serve/create-mcp-server.js"),
    import("./serve/serve-mcp-over-http.js"),
    import("./serve/serve-mcp-over-stdio.js"),
  ]).then(
    ([create, http, stdio]) => {
      serverModules = { create, http, stdio };
      return serverModules;
    },
    (error: unknown) => {
      loadingServerModules = undefined;
      throw error;
    },
  );
  return loadingServerModules;
}

/** The server modules if they are loaded, else `undefined`. */
export function loadedMcpServerModules(): McpServerModules | undefined {
  return serverModules;
}
