import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from "./run-cli.js";
import { memoryTerminal } from "./terminal.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const emptyDir = () => mkdtempSync(join(tmpdir(), "embabel-run-cli-"));

async function cli(argv: string[], env: Record<string, string> = {}, cwd = root) {
  const terminal = memoryTerminal();
  const code = await runCli(argv, { terminal, env, cwd });
  return { code, stdout: terminal.stdout, stderr: terminal.stderr };
}

describe("runCli", () => {
  // runCli imports a command's module when the command first runs; load `run`'s here, so the
  // first test that runs an example is not timed on transforming the library.
  beforeAll(() => import("./run-example.js"), 120_000);

  it("prints help for --help and help", async () => {
    for (const argv of [["--help"], ["help"]]) {
      const run = await cli(argv);
      expect(run.code).toBe(EXIT_OK);
      expect(run.stdout[0]).toContain("embabel-ts: run your agents (or the examples) from the terminal");
    }
  });

  it("prints the help on stderr and exits 2 when no command is given, like other usage mistakes", async () => {
    const run = await cli([]);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stdout).toEqual([]);
    expect(run.stderr[0]).toContain("embabel-ts: run your agents (or the examples) from the terminal");
  });

  it("prints the package version", async () => {
    const run = await cli(["--version"]);
    expect(run.stdout).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+/)]);
  });

  it("lists the examples with a command to try", async () => {
    const run = await cli(["list"]);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain(
      "  star-news        Writes a horoscope piece: a 3-action GOAP plan with @llmTool tools",
    );
    expect(run.stdout.slice(-2)).toEqual([
      '  embabel-ts run star-news "Lynda, a Scorpio" --scripted',
      'Or run your own agents: embabel-ts run ./dist/my-agents.js "<input>" (see docs/cli.md).',
    ]);
  });

  it("says npm start -- inside a clone (npm start runs it), where embabel-ts is not on PATH", async () => {
    const run = await cli(["list"], { npm_lifecycle_event: "start" });
    expect(run.stdout.slice(-2)).toEqual([
      '  npm start -- run star-news "Lynda, a Scorpio" --scripted',
      'Or run your own agents: npm start -- run ./dist/my-agents.js "<input>" (see docs/cli.md).',
    ]);
  });

  it("runs an example on its recorded script and prints the result", async () => {
    const run = await cli(["run", "star-news", "Lynda, a Scorpio", "--scripted"]);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stderr).toEqual([]);
    expect(run.stdout).toContain("Result:");
    expect(run.stdout.join("\n")).toContain("  Lynda's stars: Trust your instinct about a new collaboration");
  });

  it("says that --scripted replays the sample input's recorded replies when given another input", async () => {
    const run = await cli(["run", "star-news", "Marco, a Leo", "--scripted"]);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stderr).toEqual([
      'note: --scripted replays replies recorded for the sample input ("Lynda, a Scorpio"): with another input the answer below is a recorded replay, not a model\'s answer to yours.',
    ]);
  });

  it("notes that --model is ignored with --scripted", async () => {
    const run = await cli(["run", "star-news", "--scripted", "--model", "openai:gpt-4.1"]);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stderr).toEqual(["note: --model openai:gpt-4.1 is ignored with --scripted."]);
  });

  it("starts the config file's MCP servers only when an agent needs their tools", async () => {
    const dir = emptyDir();
    writeFileSync(
      join(dir, "embabel.config.json"),
      JSON.stringify({ mcpServers: { files: { command: "/nonexistent/never-started" } } }),
    );
    const run = await cli(["run", "star-news", "--scripted"], {}, dir);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stderr).toEqual([]);
  });

  it("fails with status 1 on an MCP server config that fits neither transport, naming it", async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, "embabel.config.json"), JSON.stringify({ mcpServers: { files: { args: [] } } }));
    const run = await cli(["run", "star-news", "--scripted"], {}, dir);
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.stderr[0]).toBe(
      'error: mcpServers.files needs either "command" (a server started over stdio) or "url" (a server reached over HTTP).',
    );
  });

  it("runs --scripted despite a broken config file, saying what is wrong with it", async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, "embabel.config.json"), '{"models": {"default": "openai:gpt-4.1",}}');
    const run = await cli(["run", "star-news", "--scripted"], {}, dir);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain("Result:");
    expect(run.stderr.join("\n")).toMatch(
      /^note: Config file .*embabel\.config\.json:1:41 is not valid JSON: .*\n\(ignored: --scripted uses no configured model\)$/,
    );
    const real = await cli(["run", "star-news"], {}, dir);
    expect(real.code).toBe(EXIT_FAILED);
    expect(real.stderr[0]).toMatch(/^error: Config file .*embabel\.config\.json:1:41 is not valid JSON/);
  });

  it("asks whether Ollama is running when an ollama: model cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const run = await cli(["run", "star-news", "--model", "ollama:qwen2.5"], { OLLAMA_BASE_URL: baseURL });
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.stderr.at(-1)).toBe(
      `Is Ollama running at ${baseURL}? Start it (ollama serve) and pull the model (ollama pull <model>), or set OLLAMA_BASE_URL to where it runs.`,
    );
  });

  it("fails with status 1 and the variables to set when no provider is configured", async () => {
    const run = await cli(["run", "star-news"], {}, emptyDir());
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.stdout).toEqual([]);
    expect(run.stderr[0]).toMatch(/^error: No LLM provider is configured\./);
  });

  it("fails with status 2 on a usage error", async () => {
    const run = await cli(["frobnicate"]);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toEqual([
      "error: Unknown command 'frobnicate'. Commands: run, list, studio, worker, mcp-serve, respond, waiting, help.",
    ]);
  });

  it("fails with status 2 on a --model id no provider accepts, naming --model", async () => {
    const run = await cli(["run", "star-news", "--model", "gpt-4.1"], {}, emptyDir());
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toEqual([
      "error: Unknown model id 'gpt-4.1'. Use 'openai:<model>', 'anthropic:<model>', 'ollama:<model>' or 'openai-compatible:<model>@<baseURL>'. (from --model)",
    ]);
  });

  it("fails with status 2 on an empty input, before any model is chosen", async () => {
    const run = await cli(["run", "star-news", ""], {}, emptyDir());
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr[0]).toMatch(/^error: The input is empty\./);
  });

  it("runs an example module given by path", async () => {
    const run = await cli(["run", "./examples/star-news/index.ts", "Ada, an Aquarius", "--scripted"]);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout.join("\n")).toContain("Ada, as an Aquarius");
  });

  it("rejects a module without agents, listing what it exports and the shape it needs", async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, "nothing.mjs"), "export const other = 1;\n");
    const run = await cli(["run", "./nothing.mjs", "--scripted"], {}, dir);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr[0]?.split("\n")[0]).toBe("error: ./nothing.mjs exports no agent (its exports: other).");
    expect(run.stderr.join("\n")).toContain("export const agents = [MyAgent];");
  });

  it("rejects a module path that does not exist, naming it as given", async () => {
    const dir = emptyDir();
    const run = await cli(["run", "./missing.js", "--scripted"], {}, dir);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr[0]).toBe(
      `error: Cannot find the module './missing.js' (looked for ${join(dir, "missing.js")}).`,
    );
  });

  it("rejects a module that fails to load, with the reason", async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, "broken.mjs"), 'import "./not-there.mjs";\n');
    const run = await cli(["run", "./broken.mjs", "--scripted"], {}, dir);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr[0]).toMatch(/^error: Cannot load \.\/broken\.mjs: .*not-there\.mjs/);
  });

  it("ends with status 1 and the reason when the run does not complete", async () => {
    const dir = emptyDir();
    writeFileSync(
      join(dir, "broken.mjs"),
      [
        `import { example as base } from ${JSON.stringify(join(root, "examples/star-news/index.ts"))};`,
        "export const example = { ...base, name: 'broken', script: () => [] };",
      ].join("\n"),
    );
    const run = await cli(["run", "./broken.mjs", "--scripted"], {}, dir);
    expect(run.code).toBe(EXIT_FAILED);
    expect(run.stderr[0]).toMatch(/^✘ failed: /);
    expect(run.stdout).not.toContain("Result:");
  });
});

describe("runCli with the built-in tools (research-brief)", () => {
  it("shows progress lines and the message to the user, not raw progress or communicate calls", async () => {
    const run = await cli(["run", "research-brief", "How does sleep affect memory?", "--scripted"]);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stderr).toEqual([]);
    expect(run.stdout).toContain("  … Searching the library for: How does sleep affect memory");
    expect(run.stdout).toContainEqual(
      expect.stringMatching(/^ {2}… Budget OK \([\d,]+ tokens left\): running the deep analysis$/),
    );
    expect(run.stdout).toContain("  ✉ Brief ready: Sleep after learning strengthens new memories.");
    expect(run.stdout).toContain("  ⚙ process_budget {}");
    expect(run.stdout).toContain('  ⚙ blackboard_last {"typeName":"SourceList"}');
    expect(run.stdout.some((line) => /⚙ (progress|communicate)\b/.test(line))).toBe(false);
    expect(run.stdout.join("\n")).toContain("\n  (deep analysis)\n");
  });
});
