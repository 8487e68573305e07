// tool-program.ts plus an MCP server's tools: what a bundle that uses MCP pays.
import { AgentPlatform, McpClients, McpToolFactory } from "../../../dist/src/index.js";
import { ScriptedModel } from "../../../dist/src/testing/index.js";

const clients = McpClients.fromConfig({ mcpServers: { tools: { command: "node", args: ["server.mjs"] } } });
const tools = await McpToolFactory.create(clients).unfolding("tools", "The server's tools", () => true);
const platform = AgentPlatform.create({ models: { default: new ScriptedModel([ScriptedModel.text("ok")]) } });
console.log(await platform.ai().withTool(tools).generateText("hi"));
await clients.close();
