// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
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
});
