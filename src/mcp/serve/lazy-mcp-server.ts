// The public entry points of the MCP server side, light to import: each loads
// the server modules (and with them the MCP SDK's server, its zod schemas and
// ajv) the first time it is called. `serveMcpOverHttp` and `serveMcpOverStdio`
// are async and load with `import()`. `createMcpServer` and `agentInputType`
// stay synchronous, as they always were: when nothing has loaded the server
// modules yet, they load them with Node's `require()` of an ES module (Node
// 20.19+, Bun and Deno; the same module instances as `import()`, so there is one
// copy of the SDK either way).

import { ConfigurationError } from "../../errors/configuration-error.js";
import { codePath } from "../../package-root.js";
import type { Agent } from "../../platform/agent.js";
import type { TypeToken } from "../../tool/type-token.js";
import { loadedMcpServerModules, loadMcpServerModules } from "../load-mcp-sdk.js";
import type * as CreateMcpServerModule from "./create-mcp-server.js";
import type { CreateMcpServerOptions } from "./create-mcp-server.js";
import type * as ServeMcpOverHttpModule from "./serve-mcp-over-http.js";
import type * as ServeMcpOverStdioModule from "./serve-mcp-over-stdio.js";

let required: typeof CreateMcpServerModule | undefined;

/** The module of `createMcpServer`: loaded already, or now, synchronously. */
function createModule(): typeof CreateMcpServerModule {
  const loaded = loadedMcpServerModules()?.create ?? required;
  if (loaded) return loaded;
  const nodeModule = globalThis.process?.getBuiltinModule?.("node:module");
  try {
    if (!nodeModule) throw new Error("no require() here");
    // From the package root: bundled, this code runs from a chunk, and the module is an entry point of the build.
    const path = codePath("src/mcp/serve/create-mcp-server.js");
    required = nodeModule.createRequire(path)(path) as typeof CreateMcpServerModule;
    return required;
  } catch (error) {
    throw new ConfigurationError(
      "createMcpServer could not load the MCP server synchronously here (this runtime has no require() of ES modules, or the program is bundled): call `await serveMcpOverHttp(...)` / `await serveMcpOverStdio(...)`, which load it, before creating servers yourself.",
      { cause: error },
    );
  }
}

/**
 * The input type of `agent`: the first input of its actions that no action
 * produces (what the caller must put on the blackboard).
 */
export function agentInputType(agent: Agent): TypeToken {
  return createModule().agentInputType(agent);
}

/**
 * An MCP server (the SDK's `McpServer`) offering `options.tools` and the
 * agents of `options.platform` as tools; see {@link CreateMcpServerOptions}.
 * The MCP SDK's server side is loaded on the first call.
 */
export function createMcpServer(
  ...args: Parameters<typeof CreateMcpServerModule.createMcpServer>
): ReturnType<typeof CreateMcpServerModule.createMcpServer> {
  return createModule().createMcpServer(...args);
}

/**
 * Serves a fresh server from `createMcpServer` for each request over MCP's
 * Streamable HTTP transport; resolves once listening. The MCP SDK's server
 * side is loaded first.
 */
export async function serveMcpOverHttp(
  ...args: Parameters<typeof ServeMcpOverHttpModule.serveMcpOverHttp>
): ReturnType<typeof ServeMcpOverHttpModule.serveMcpOverHttp> {
  const { http } = await loadMcpServerModules();
  return http.serveMcpOverHttp(...args);
}

/**
 * Serves `server` over stdin and stdout (one JSON-RPC message a line). The
 * MCP SDK's server side is loaded first.
 */
export async function serveMcpOverStdio(
  ...args: Parameters<typeof ServeMcpOverStdioModule.serveMcpOverStdio>
): ReturnType<typeof ServeMcpOverStdioModule.serveMcpOverStdio> {
  const { stdio } = await loadMcpServerModules();
  return stdio.serveMcpOverStdio(...args);
}
