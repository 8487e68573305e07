import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClients, McpToolFactory } from "../src/index.js";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { mcpServeUrl } from "./support/mcp-serve-url.js";

// `embabel-ts mcp-serve` and `run mcp-weather`, as a user meets them: the built command, spawned with node.

const cwd = mkdtempSync(join(tmpdir(), "embabel-mcp-serve-"));

beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe("embabel-ts mcp-serve --scripted", () => {
  it("serves the example agents over stdio, each as a tool taking its input type", async () => {
    const clients = McpClients.fromConfig({
      mcpServers: { examples: { command: process.execPath, args: [main, "mcp-serve", "--scripted"], cwd } },
    });
    try {
      const factory = McpToolFactory.create(clients);
      const starNews = await factory.requiredToolByName("StarNewsWriter");
      expect(starNews.definition.inputSchema.jsonSchema).toMatchObject({
        properties: { content: { type: "string" } },
      });
      const piece = await starNews.call('{"content":"Lynda, a Scorpio"}');
      expect(piece.kind).toBe("text");
      expect(piece.content).toContain("Lynda");
      const weather = await factory.requiredToolByName("WeatherReporter");
      const report = await weather.call('{"content":"Any rain in Porto today?"}');
      expect(report.content).toMatch(/"city":"Porto".*No warnings in force for Porto/);
      // Its Agent Skills come from the example's config file, as with `run`.
      const releaseNotes = await factory.requiredToolByName("ReleaseNotesWriter");
      const notes = await releaseNotes.call(
        '{"content":"Version 1.0.0. Changes: fix: keep the cursor in place"}',
      );
      expect(notes.content).toContain('"version":"1.0.1"');
    } finally {
      await clients.close();
    }
  });

  it("serves Streamable HTTP on 127.0.0.1 with --http 0, until Ctrl-C", async () => {
    const child = spawn(process.execPath, [main, "mcp-serve", "--http", "0", "--scripted"], {
      cwd,
      env: { PATH: process.env.PATH ?? "" },
    });
    try {
      const url = await mcpServeUrl(child);
      const clients = McpClients.fromConfig({ mcpServers: { examples: { url } } });
      try {
        const names = (
          await McpToolFactory.create(clients).unfoldingMatching("all", "All", [/./])
        ).innerTools.map((tool) => tool.definition.name);
        expect(names).toEqual(expect.arrayContaining(["StarNewsWriter", "WeatherReporter"]));
      } finally {
        await clients.close();
      }
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("embabel-ts mcp-serve <module>", () => {
  it("serves the agent of a module path, as run and worker take one", async () => {
    const module = join(root, "dist/examples/star-news/index.js");
    const clients = McpClients.fromConfig({
      mcpServers: {
        one: { command: process.execPath, args: [main, "mcp-serve", module, "--scripted"], cwd },
      },
    });
    try {
      const names = (await clients.get("one")?.listTools())?.map((tool) => tool.name);
      expect(names).toEqual(["StarNewsWriter", "respond_to_request"]);
      const piece = await (await McpToolFactory.create(clients).requiredToolByName("StarNewsWriter")).call(
        '{"content":"Lynda, a Scorpio"}',
      );
      expect(piece.content).toContain("Lynda");
    } finally {
      await clients.close();
    }
  });
});

describe("embabel-ts mcp-serve without a model", () => {
  it("fails at start with the same clear message as run, before any client connects", async () => {
    const [serve, run] = await Promise.all([cli(["mcp-serve"], {}, cwd), cli(["run", "star-news"], {}, cwd)]);
    expect(serve.code).toBe(1);
    expect(serve.stderr.split("\n")[0]).toBe(
      "error: No LLM provider is configured. Set one of these and run again:",
    );
    expect(serve.stderr.split("\n")[0]).toBe(run.stderr.split("\n")[0]);
    expect(serve.stdout).toBe("");
  });
});

describe("embabel-ts run mcp-weather --scripted", () => {
  it("runs the agent on tools from the MCP server its config file names", async () => {
    const run = await cli(["run", "mcp-weather", "Weather in Oslo?", "--scripted"], {}, cwd);
    expect(run.stderr).toContain("with another input the answer below is a recorded replay");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("weather_forecast");
    expect(run.stdout).toMatch(/ {2}Oslo: .+°C\. No warnings in force for Oslo\./);
    // The report names the city once (the summary starts with it).
    expect(run.stdout).not.toContain("Oslo: Oslo:");
  });
});
