import { mkdtempSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpClients } from "../../src/mcp/mcp-clients.js";
import { McpToolFactory } from "../../src/mcp/mcp-tool-factory.js";
import type { Tool } from "../../src/tool/tool.js";
import { eventually, FIXTURE_SERVER, isAlive } from "../support/mcp-fixture.js";

/** The MCP server name the dead tool's answers must name. */
export const DEAD_MCP_SERVER = "fuzzed";

let deadTool: Tool | undefined;

/** The fixture's `get_weather`, loaded from a real stdio server that has since been killed (see {@link startDeadMcpServer}). */
export function deadMcpTool(): Tool {
  if (!deadTool) throw new Error("fuzz: call startDeadMcpServer() in beforeAll before building the tools");
  return deadTool;
}

/**
 * Starts the fixture MCP server over stdio, loads its `get_weather` tool, then
 * kills the server and removes the command it was started with, so every
 * later call finds it dead (a restart fails at once: no new process). Once per
 * file; resolves to the cleanup.
 */
export async function startDeadMcpServer(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), "embabel-fuzz-mcp-"));
  const node = join(dir, "node");
  symlinkSync(process.execPath, node);
  const clients = McpClients.fromConfig({
    mcpServers: {
      [DEAD_MCP_SERVER]: { command: node, args: [FIXTURE_SERVER], env: { FIXTURE_LOG: join(dir, "log") } },
    },
  });
  const cleanup = async () => {
    deadTool = undefined;
    await clients.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const tool = await McpToolFactory.create(clients).requiredToolByName("get_weather");
    const alive = await tool.call('{"city":"Lyon"}');
    if (alive.kind === "error") throw new Error(`the fixture server did not answer: ${alive.content}`);
    const pid = clients.get(DEAD_MCP_SERVER)?.pid;
    if (pid === undefined) throw new Error("the fixture server has no pid");
    unlinkSync(node);
    process.kill(pid, "SIGKILL");
    await eventually(() => !isAlive(pid));
    deadTool = tool;
    return cleanup;
  } catch (error) {
    await cleanup();
    throw error;
  }
}
