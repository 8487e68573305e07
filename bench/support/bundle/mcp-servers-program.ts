// An AgentPlatform given `mcpServers` in a program that uses no MCP export: a
// bundler leaves the MCP layer out, so create() must say what to do.
import { AgentPlatform } from "../../../dist/src/index.js";
import { ScriptedModel } from "../../../dist/src/testing/index.js";

try {
  AgentPlatform.create({
    models: { default: new ScriptedModel([ScriptedModel.text("ok")]) },
    mcpServers: { tools: { command: "node", args: ["server.mjs"] } },
  });
  console.log("created");
} catch (error) {
  console.log(`${(error as Error).name}: ${(error as Error).message}`);
}
