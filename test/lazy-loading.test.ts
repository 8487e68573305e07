import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";

// Importing the package loads nothing a user did not ask for (issue 27): each
// check runs in a fresh Node process that records every module it loads.
const index = pathToFileURL(join(root, "dist/src/index.js")).href;
const HOOK = `data:text/javascript,${encodeURIComponent(
  "export async function load(url, context, next) { globalThis.port?.postMessage(url); return next(url, context); }" +
    "export function initialize(data) { globalThis.port = data.port; }",
)}`;

/** Runs `body` (an async function body with `loaded()` in scope) after importing the package; its JSON result. */
function inFreshProcess(body: string): unknown {
  const script = `
    import { register } from "node:module";
    import { MessageChannel } from "node:worker_threads";
    const urls = [];
    const { port1, port2 } = new MessageChannel();
    port1.on("message", (url) => urls.push(url));
    port1.unref();
    register(${JSON.stringify(HOOK)}, { data: { port: port2 }, transferList: [port2] });
    const flush = () => new Promise((resolve) => setTimeout(resolve, 50));
    const loaded = async () => { await flush(); return [...urls]; };
    const lib = await import(${JSON.stringify(index)});
    const result = await (async () => { ${body} })();
    process.stdout.write(JSON.stringify(result));`;
  return JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }),
  );
}

const HEAVY =
  /node_modules\/(@modelcontextprotocol\/(?:sdk|client|server|core|node)|ajv|yaml|hono|@hono\/node-server|quickjs-emscripten-core|@jitl|@opentelemetry\/api)\//;

describe("import('embabel-ts')", () => {
  beforeAll(() => ensureBuilt(), 300_000);

  // The OpenTelemetry API (~37 ms of import) too: spans start through the global it registers (loop/otel-global).
  it("loads neither the MCP SDK, ajv, yaml, Hono nor the OpenTelemetry API", () => {
    const heavy = inFreshProcess(
      "return (await loaded()).filter((url) => HEAVY.test(url));".replace("HEAVY", HEAVY.toString()),
    );
    expect(heavy).toEqual([]);
  });

  it("loads QuickJS only when a code-mode program first runs", () => {
    const result = inFreshProcess(`
      const quickjs = (urls) => urls.filter((url) => /quickjs/.test(url)).length;
      const tool = lib.CodeModeTool.of("run_code", "", []);
      const before = quickjs(await loaded());
      const answer = await tool.call(JSON.stringify({ code: "return 6 * 7;" }));
      return { before, after: quickjs(await loaded()) > 0, answer: answer.content };
    `);
    expect(result).toEqual({ before: 0, after: true, answer: "42" });
  });

  it("creates an MCP server synchronously, from the one copy of the SDK that import() loads", () => {
    const result = inFreshProcess(`
      const server = lib.createMcpServer({ name: "lazy", tools: [] });
      const { McpServer } = await import("@modelcontextprotocol/server");
      return server instanceof McpServer;
    `);
    expect(result).toBe(true);
  });

  it("still fails fast on a bad server definition, now that it loads the SDK first", () => {
    const result = inFreshProcess(`
      try { lib.createMcpServer({ name: "lazy", agents: ["Missing"] }); return "created"; }
      catch (error) { return error.name + ": " + error.message; }
    `);
    expect(result).toBe(
      "ConfigurationError: createMcpServer: 'agents' needs the 'platform' they are deployed on.",
    );
  });
});
