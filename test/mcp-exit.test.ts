// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";
import { eventually, fixtureConfig, isAlive, tempLog } from "./support/mcp-fixture.js";

beforeAll(() => ensureBuilt(), 180_000);

const { dir, log } = tempLog();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("MCP child processes", () => {
  it("do not outlive the Node process that started them, even without close()", async () => {
    const mcp = pathToFileURL(join(root, "dist/src/mcp/index.js")).href;
    const script = [
      `import { McpClients, McpToolFactory } from ${JSON.stringify(mcp)};`,
      `const clients = McpClients.fromConfig({ mcpServers: { tools: ${JSON.stringify(fixtureConfig(log))} } });`,
      "const factory = McpToolFactory.create(clients);",
      'const pid = await (await factory.requiredToolByName("pid")).call("{}");',
      "// A busy server (a pending call) does not exit by itself when its stdin closes.",
      'void (await factory.requiredToolByName("slow")).call(\'{"ms":60000}\');',
      "await new Promise((resolve) => setTimeout(resolve, 300));",
      "console.log(`PID ${pid.content}`);",
      "process.exit(0);",
    ].join("\n");
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    const pid = Number(/PID (\d+)/.exec(output)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await eventually(() => !isAlive(pid));
  });

  it("do not outlive the Node process when it exits while a server is still starting", async () => {
    const mcp = pathToFileURL(join(root, "dist/src/mcp/index.js")).href;
    const pidFile = join(dir, "starting.pid");
    // A server that never answers the handshake (and ignores its stdin closing).
    const server = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const script = [
      'import { existsSync } from "node:fs";',
      `import { McpClients, McpToolGroup } from ${JSON.stringify(mcp)};`,
      `const clients = McpClients.fromConfig({ mcpServers: { starting: { command: process.execPath, args: ["-e", ${JSON.stringify(server)}], connectTimeoutMs: 60000 } } });`,
      'void McpToolGroup.create({ role: "r", description: "d", clients }).tools().catch(() => {});',
      `while (!existsSync(${JSON.stringify(pidFile)})) await new Promise((resolve) => setTimeout(resolve, 20));`,
      "process.exit(0);",
    ].join("\n");
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    try {
      expect(pid).toBeGreaterThan(0);
      await eventually(() => !isAlive(pid));
    } finally {
      if (isAlive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("do not outlive a Node process ended by SIGTERM or SIGINT", async () => {
    const mcp = pathToFileURL(join(root, "dist/src/mcp/index.js")).href;
    const script = [
      `import { McpClients, McpToolFactory } from ${JSON.stringify(mcp)};`,
      `const clients = McpClients.fromConfig({ mcpServers: { tools: ${JSON.stringify(fixtureConfig(log))} } });`,
      "const factory = McpToolFactory.create(clients);",
      'const pid = await (await factory.requiredToolByName("pid")).call("{}");',
      'void (await factory.requiredToolByName("slow")).call(\'{"ms":60000}\');',
      "await new Promise((resolve) => setTimeout(resolve, 300));",
      "console.log(`PID ${pid.content}`);",
      "setInterval(() => {}, 1000);",
    ].join("\n");
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const parent = spawn(process.execPath, ["--input-type=module", "-e", script], {
        cwd: root,
        stdio: ["ignore", "pipe", "inherit"],
      });
      try {
        const pid = await new Promise<number>((resolve, reject) => {
          let out = "";
          parent.stdout?.on("data", (chunk: Buffer) => {
            out += chunk.toString();
            const match = /PID (\d+)/.exec(out);
            if (match) resolve(Number(match[1]));
          });
          parent.once("exit", (code) => reject(new Error(`parent exited early (${code})`)));
        });
        expect(isAlive(pid)).toBe(true);
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
          parent.once("exit", (_code, by) => resolve(by)),
        );
        parent.kill(signal);
        // The signal still ends the parent as it would have (default behaviour kept).
        expect(await exited).toBe(signal);
        await eventually(() => !isAlive(pid));
      } finally {
        if (parent.exitCode === null && parent.signalCode === null) parent.kill("SIGKILL");
      }
    }
  }, 30_000);
});
