import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";

// What the built `embabel-ts` command prints and keeps when tools, servers or providers send hostile or secret text.
const folder = mkdtempSync(join(tmpdir(), "embabel-cli-sec-"));
const ESC = "\u001b";

beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A working directory whose config replaces mcp-weather's server with a hostile one. */
function hostileWeatherDir(): string {
  const cwd = mkdtempSync(join(folder, "hostile-"));
  const server = join(root, "test/fixtures/mcp/hostile-weather-server.mjs");
  writeFileSync(
    join(cwd, "embabel.config.json"),
    JSON.stringify({ mcpServers: { weather: { command: "node", args: [server] } } }),
  );
  return cwd;
}

describe("embabel-ts run with a hostile MCP server", () => {
  it("prints tool output, server stderr and the model's text without control or escape sequences", async () => {
    const run = await cli(["run", "mcp-weather", "--scripted", "--no-keep-runs"], {}, hostileWeatherDir());
    expect(run.code).toBe(0);
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toContain(ESC);
      expect(output).not.toContain("\u0007");
      expect(output).not.toContain("\u009b");
      expect(output).not.toContain("TITLE-HIJACK");
    }
    expect(run.stdout).toContain("↳ Lisbon: Clear, 20°C");
    // The server's stderr never reaches the model (nor the run's output); it is logged, cleaned and redacted.
    expect(run.stdout).not.toContain("upstream said");
    expect(run.stderr).toContain("error: upstream said");
    expect(run.stderr).toContain("key [REDACTED]");
    for (const output of [run.stdout, run.stderr]) expect(output).not.toContain("sk-child-SECRET");
  }, 60_000);

  it("keeps the CLI's own colours with FORCE_COLOR, and only those", async () => {
    const run = await cli(
      ["run", "mcp-weather", "--scripted", "--no-keep-runs"],
      { FORCE_COLOR: "1" },
      hostileWeatherDir(),
    );
    expect(run.code).toBe(0);
    const sequences = new Set(run.stdout.match(new RegExp(`${ESC}[^m]*m|${ESC}\\]`, "g")));
    const ownColour = new RegExp(`^${ESC}\\[(1|2|22|31|32|33|35|36|39)m$`);
    expect([...sequences].every((sequence) => ownColour.test(sequence))).toBe(true);
    expect(sequences.size).toBeGreaterThan(2);
  }, 60_000);

  it("escapes them in --json output: every line parses, and holds what the tool returned", async () => {
    const run = await cli(
      ["run", "mcp-weather", "--scripted", "--no-keep-runs", "--json"],
      {},
      hostileWeatherDir(),
    );
    expect(run.code).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control may be printed
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const records = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const forecast = records.find(
      (record) => record.type === "tool-call-end" && record.toolName === "weather_forecast",
    );
    expect(forecast.result.content).toContain(`${ESC}]52;c;`);
    expect(forecast.result.content).toContain("\u009b2K");
  }, 60_000);
});

describe("embabel-ts run against a provider that echoes the key", () => {
  let server: Server;
  let baseURL: string;
  const received: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(String(request.headers.authorization));
      response.writeHead(401, { "content-type": "application/json" }).end(
        JSON.stringify({
          error: {
            message: `Invalid credentials: Authorization: ${request.headers.authorization}`,
            type: "invalid_request_error",
          },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("keeps the key out of the terminal and the kept trace, which only its owner can read", async () => {
    const runsDir = join(folder, "runs-provider");
    const run = await cli(
      ["run", "star-news", "Lynda, a Scorpio", "--model", `openai-compatible:m@${baseURL}`],
      {
        OPENAI_COMPATIBLE_API_KEY: "sk-compat-SECRET-123456",
        EMBABEL_RUNS_DIR: runsDir,
      },
    );
    expect(run.code).toBe(1);
    expect(received[0]).toBe("Bearer sk-compat-SECRET-123456"); // the provider really got (and echoed) it
    expect(`${run.stdout}${run.stderr}`).toContain("Invalid credentials");
    expect(`${run.stdout}${run.stderr}`).not.toContain("SECRET");
    const [kept] = readdirSync(runsDir);
    const trace = readFileSync(join(runsDir, kept as string), "utf8");
    expect(trace).toContain("Invalid credentials");
    expect(trace).not.toContain("SECRET");
    expect(statSync(join(runsDir, kept as string)).mode & 0o777).toBe(0o600);
    expect(statSync(runsDir).mode & 0o777).toBe(0o700);
  }, 60_000);

  it("keeps a URL's user:password out of the banner and the trace", async () => {
    const runsDir = join(folder, "runs-userinfo");
    const withUser = baseURL.replace("http://", "http://user:basic-SECRET-pw@");
    const run = await cli(
      ["run", "star-news", "Lynda, a Scorpio", "--model", `openai-compatible:m@${withUser}`],
      {
        EMBABEL_RUNS_DIR: runsDir,
      },
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain("SECRET");
    expect(run.stdout.split("\n")[0]).toContain(`openai-compatible:m@http://[REDACTED]@127.0.0.1:`);
    const [kept] = readdirSync(runsDir);
    const trace = readFileSync(join(runsDir, kept as string), "utf8");
    expect(JSON.parse(trace.split("\n")[0] as string).meta.model).toContain("http://[REDACTED]@127.0.0.1:");
    expect(trace).not.toContain("SECRET");
  }, 60_000);
});

describe("embabel-ts run's kept runs", () => {
  it("are rotated without touching the user's own .jsonl files in the runs folder", async () => {
    const data = join(folder, "data");
    mkdirSync(data);
    for (let index = 1; index <= 25; index += 1) {
      writeFileSync(join(data, `data-${String(index).padStart(2, "0")}.jsonl`), '{"row":1}\n');
    }
    const run = await cli(["run", "star-news", "Lynda, a Scorpio", "--scripted"], { EMBABEL_RUNS_DIR: data });
    expect(run.code).toBe(0);
    const names = readdirSync(data);
    expect(names.filter((name) => name.startsWith("data-"))).toHaveLength(25);
    expect(names.filter((name) => name.endsWith("-star-news.jsonl"))).toHaveLength(1);
  }, 60_000);
});
