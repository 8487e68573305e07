// Tool listings against real SDK servers over stdio: a server that pages its
// tools/list, and one whose tool list changes while connected.
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentPlatform, McpClients, McpToolFactory, McpToolGroup, type Tool } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { type CapturedLogs, captureLogs } from "./support/captured-logs.js";
import { eventually, logLines, startHttpFixture, tempLog } from "./support/mcp-fixture.js";

const PAGED_SERVER = fileURLToPath(new URL("./fixtures/mcp/paged-server.mjs", import.meta.url));
const CHANGING_SERVER = fileURLToPath(new URL("./fixtures/mcp/changing-server.mjs", import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
// Servers that fail on purpose make the library warn: the warnings are recorded (and asserted where they are the point), not printed.
let logs: CapturedLogs;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  logs.restore();
});

function serve(script: string): { clients: McpClients; log: string; dir: string } {
  const { dir, log } = tempLog();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const clients = McpClients.fromConfig({
    mcpServers: { fixture: { command: process.execPath, args: [script], env: { FIXTURE_LOG: log } } },
  });
  cleanups.push(() => clients.close());
  return { clients, log, dir };
}

function group(clients: McpClients): McpToolGroup {
  return McpToolGroup.create({ role: "fixture", description: "Fixture tools", clients });
}

function names(tools: readonly Tool[]): string[] {
  return tools.map((tool) => tool.definition.name);
}

function named(tools: readonly Tool[], name: string): Tool {
  const found = tools.find((tool) => tool.definition.name === name);
  if (!found) throw new Error(`no tool ${name} in ${names(tools).join(", ")}`);
  return found;
}

describe("a server that pages tools/list", () => {
  it("gives every tool of every page, in order, passing the server's cursors back", async () => {
    const { clients, log } = serve(PAGED_SERVER);
    const tools = await group(clients).tools();
    expect(names(tools)).toEqual(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]);
    expect(logLines(log)).toEqual(["cursor (none)", "cursor 3", "cursor 6"]);
    expect((await named(tools, "alpha").call("{}")).content).toBe("called alpha");
    expect((await named(tools, "golf").call("{}")).content).toBe("called golf");
    const delta = await McpToolFactory.create(clients).requiredToolByName("delta");
    expect((await delta.call("{}")).content).toBe("called delta");
  });
});

describe("a server whose tool list changes (notifications/tools/list_changed)", () => {
  it("is listed again on the group's next use, not before, keeping the tools that did not change", async () => {
    const { clients, log } = serve(CHANGING_SERVER);
    const client = clients.get("fixture");
    const tools = group(clients);
    const first = await tools.tools();
    expect(names(first)).toEqual(["base", "add_tool", "remove_tool"]);
    expect(await tools.tools()).toBe(first);
    const listed = client?.toolListVersion ?? -1;

    expect((await named(first, "add_tool").call('{"name":"late"}')).content).toBe("added late");
    await eventually(() => (client?.toolListVersion ?? -1) > listed);
    expect(logLines(log)).toEqual(["list"]); // told, but nothing listed until the group is used

    const second = await tools.tools();
    expect(names(second)).toEqual(["base", "add_tool", "remove_tool", "late"]);
    expect(named(second, "base")).toBe(named(first, "base"));
    expect((await named(second, "late").call("{}")).content).toBe("I am late");
    expect(await tools.tools()).toBe(second);
    expect(logLines(log)).toEqual(["list", "list"]);

    const changed = client?.toolListVersion ?? -1;
    await named(second, "remove_tool").call('{"name":"late"}');
    await eventually(() => (client?.toolListVersion ?? -1) > changed);
    expect(names(await tools.tools())).toEqual(["base", "add_tool", "remove_tool"]);
  });

  it("keeps the tools it had when the server is gone by the time it lists again, and lists once it is back", async () => {
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const entry = join(dir, "server.mjs");
    symlinkSync(CHANGING_SERVER, entry);
    const clients = McpClients.fromConfig({
      mcpServers: { fixture: { command: process.execPath, args: [entry], env: { FIXTURE_LOG: log } } },
    });
    cleanups.push(() => clients.close());
    const client = clients.get("fixture");
    const tools = group(clients);
    const first = await tools.tools();
    await named(first, "add_tool").call('{"name":"late"}');
    await eventually(() => (client?.toolListVersion ?? 0) > 0);
    // The server dies and can't be started again before the group is next used.
    rmSync(entry);
    process.kill(client?.pid ?? 0, "SIGKILL");
    await eventually(() => client?.connected === false);
    expect(await tools.tools()).toBe(first);
    expect(logs.lines).toContainEqual(
      expect.stringMatching(
        /^warn: MCP server 'fixture' could not be started; its stderr ends with:\n[\s\S]*Cannot find module/,
      ),
    );
    expect(await named(first, "base").call("{}")).toMatchObject({
      kind: "error",
      content: expect.stringMatching(/^MCP server 'fixture' /),
    });
    symlinkSync(CHANGING_SERVER, entry);
    const again = await tools.tools();
    expect(names(again)).toEqual(["base", "add_tool", "remove_tool"]); // a new server: `late` is gone
    expect(logLines(log)).toEqual(["list", "list"]);
    expect(await tools.tools()).toBe(again);
  });

  it("follows the notification over Streamable HTTP too (a session; it arrives on the client's GET stream)", async () => {
    const { dir, log } = tempLog();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { url, child } = await startHttpFixture(log, 0, "http", CHANGING_SERVER);
    cleanups.push(() => {
      child.kill("SIGKILL");
    });
    const clients = McpClients.fromConfig({ mcpServers: { fixture: { url } } });
    cleanups.push(() => clients.close());
    const client = clients.get("fixture");
    const tools = group(clients);
    const first = await tools.tools();
    expect(names(first)).toEqual(["base", "add_tool", "remove_tool"]);
    const listed = client?.toolListVersion ?? -1;
    expect((await named(first, "add_tool").call('{"name":"remote_late"}')).content).toBe("added remote_late");
    await eventually(() => (client?.toolListVersion ?? -1) > listed);
    expect(logLines(log)).toEqual(["list"]);
    const second = await tools.tools();
    expect(names(second)).toEqual(["base", "add_tool", "remove_tool", "remote_late"]);
    expect(named(second, "base")).toBe(named(first, "base"));
    expect((await named(second, "remote_late").call("{}")).content).toBe("I am remote_late");
    expect(logLines(log)).toEqual(["list", "list"]);
  });

  it("offers a tool the server added to the model's next interaction that resolves the group", async () => {
    const { clients } = serve(CHANGING_SERVER);
    const client = clients.get("fixture");
    const model = new ScriptedModel([
      ScriptedModel.toolCall("add_tool", { name: "late_tool" }),
      ScriptedModel.text("Added it."),
      ScriptedModel.toolCall("late_tool", {}),
      ScriptedModel.text("It answered."),
    ]);
    const platform = AgentPlatform.create({ models: { default: model }, toolGroups: [group(clients)] });
    cleanups.push(() => platform.close());
    await platform.ai().withToolGroup("fixture").generateText("Add a tool called late_tool.");
    await eventually(() => (client?.toolListVersion ?? 0) > 0);
    await platform.ai().withToolGroup("fixture").generateText("Use late_tool.");
    expect(model.requests[0]?.toolNames).toEqual(["base", "add_tool", "remove_tool"]);
    expect(model.requests[2]?.toolNames).toEqual(["base", "add_tool", "remove_tool", "late_tool"]);
    expect(model.requests[3]?.toolResults[0]?.output).toEqual({ type: "text", value: "I am late_tool" });
  });
});
