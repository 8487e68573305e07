import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// A user's own module (test/fixtures/user-agents/greeter.js: plain ESM exporting
// `agents`, one agent whose greeting waits for approval) on every surface of the
// built command: run, mcp-serve, worker + waiting + respond; and what the CLI
// says about a module that is missing or of the wrong shape.

const fixture = join(root, "test/fixtures/user-agents/greeter.js");
// The official MCP Inspector's command-line client (a dev dependency), as a user runs it.
const inspectorCli = join(root, "node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");
const cwd = mkdtempSync(join(tmpdir(), "embabel-user-module-"));
// A key that is never used (the agent calls no LLM): a run outside --scripted needs a model configured.
const env = { OPENAI_API_KEY: "sk-test-never-sent", EMBABEL_RUNS_DIR: join(cwd, "runs") };

beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe("embabel-ts run <your module>", () => {
  it("runs the module's agent on the input, made into the type it starts from", async () => {
    const run = await cli(["run", fixture, "Ada", "--approve-all"], env, cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Greeter · agent Greeter");
    expect(run.stdout).toContain('"text": "Hello, Ada!"');
    // One action that waited and ran again counts once.
    expect(run.stdout).toMatch(/✔ completed .* · 1 action · 0 LLM calls · 0 tool calls/);
  });

  it("takes JSON input for the agent's type, and says which field is wrong", async () => {
    const ok = await cli(["run", fixture, '{"name":"Grace"}', "--deny-all"], env, cwd);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("Not greeted: ");
    const bad = await cli(["run", fixture, '{"nom":"Grace"}'], env, cwd);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "error: The input does not fit Person { name: string }, which agent 'Greeter' starts from: Invalid Person: name:",
    );
  });

  it("asks for an input when the module gives no sample, naming the type", async () => {
    const run = await cli(["run", fixture], env, cwd);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `error: 'run' needs an input for agent 'Greeter', which starts from Person { name: string }: embabel-ts run ${fixture} "<input>"`,
    );
  });

  it("says --scripted needs an example with a recorded script, and what to export", async () => {
    const run = await cli(["run", fixture, "Ada", "--scripted"], {}, cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("exports agent 'Greeter' without one");
    expect(run.stderr).toContain(
      'export const example = { name: "Greeter", agents: [Greeter], script: () => [...recorded replies] };',
    );
  });

  it("names the missing file as the user gave it, not an internal chunk", async () => {
    const run = await cli(["run", "./dist/not-there.js", "hi"], env, cwd);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `error: Cannot find the module './dist/not-there.js' (looked for ${join(cwd, "dist/not-there.js")}).`,
    );
    expect(run.stderr).not.toContain("chunk");
  });

  it("names every bad field of an example export, with the expected shape", async () => {
    writeFileSync(
      join(cwd, "bad.mjs"),
      `export const example = { name: "", agents: [{}], script: [{ text: "hi" }], summary: 3 };\n`,
    );
    const run = await cli(["run", "./bad.mjs"], env, cwd);
    expect(run.code).toBe(2);
    const lines = run.stderr.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "error: ./bad.mjs does not fit:",
      `  'example.name' must be a non-empty string (the name typed on the command line), got string "".`,
      "  'example.agents[0]' must be an agent (an @agent class, an instance of one, or defineAgent(...)), got an object that is not an agent.",
      "  'example.script' must be a function returning the recorded replies, got an array (wrap the array: script: () => [...], so each run replays it from the start).",
      "  'example.summary' must be a string, got number 3.",
    ]);
    expect(run.stderr).toContain("export const agents = [MyAgent];");
  });

  it("says a module without agents exports none, listing what it does export", async () => {
    writeFileSync(join(cwd, "none.mjs"), "export const answer = 42;\nexport function helper() {}\n");
    const run = await cli(["run", "./none.mjs", "hi"], env, cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: ./none.mjs exports no agent (its exports: answer, helper).");
  });

  it("runs one of several agents with --agent, suggesting the name when it is mistyped", async () => {
    writeFileSync(
      join(cwd, "two.mjs"),
      [
        `import { Greeter, Greeting } from ${JSON.stringify(fixture)};`,
        `import { defineAgent } from ${JSON.stringify(join(root, "dist/src/index.js"))};`,
        "export const Echo = defineAgent({ name: 'Echo', description: 'Says it back', actions: [",
        "  { name: 'echo', input: String, output: Greeting, achievesGoal: { description: 'said' }, run: (text) => Greeting.create({ text: 'echo: ' + text }) },",
        "] });",
        "export { Greeter };",
      ].join("\n"),
    );
    const several = await cli(["run", "./two.mjs", "hi"], env, cwd);
    expect(several.code).toBe(2);
    expect(several.stderr.trim()).toBe(
      "error: ./two.mjs has 2 agents (Echo, Greeter): choose one with --agent <name>.",
    );
    const echo = await cli(["run", "./two.mjs", "hi", "--agent", "Echo"], env, cwd);
    expect(echo.code, echo.stderr).toBe(0);
    expect(echo.stdout).toContain("echo: hi");
    const typo = await cli(["run", "./two.mjs", "hi", "--agent", "Ecoh"], env, cwd);
    expect(typo.stderr.trim()).toBe(
      "error: ./two.mjs has no agent 'Ecoh' (it has Echo, Greeter). Did you mean 'Echo'?",
    );
  });

  it("suggests the example a mistyped name was meant to be", async () => {
    const run = await cli(["run", "star-nwes"], {}, cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: Unknown example 'star-nwes'. Did you mean 'star-news'?");
  });
});

describe("embabel-ts mcp-serve <your module>", () => {
  it("serves the module's agent under the module's package name, with its typed input", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [main, "mcp-serve", fixture],
        cwd,
        env: { PATH: process.env.PATH ?? "", ...env },
        stderr: "ignore",
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe("greeter-agents");
      const { tools } = await client.listTools();
      // mcp-serve also offers respond_to_request, for clients without elicitation to answer a waiting run.
      expect(tools.map((tool) => tool.name)).toEqual(["Greeter", "respond_to_request"]);
      expect(tools[0]?.inputSchema).toMatchObject({
        properties: { name: { type: "string", description: "Who to greet" } },
        required: ["name"],
      });
    } finally {
      await client.close();
    }
  }, 30_000);

  it("is listed by the official MCP Inspector CLI under the module's name, with the agent's tool", async () => {
    // The Inspector CLI prints only the method's result, so the server's side of the stdio pipe
    // is copied to a file on its way to the Inspector: its initialize answer names the server.
    const wire = join(cwd, "inspector-wire.jsonl");
    const tee = join(cwd, "tee.mjs");
    writeFileSync(
      tee,
      [
        'import { spawn } from "node:child_process";',
        'import { createWriteStream } from "node:fs";',
        "const [out, ...command] = process.argv.slice(2);",
        "const copy = createWriteStream(out);",
        'const child = spawn(process.execPath, command, { stdio: ["pipe", "pipe", "inherit"] });',
        "process.stdin.pipe(child.stdin);",
        'child.stdout.on("data", (chunk) => { copy.write(chunk); process.stdout.write(chunk); });',
        'child.on("exit", (code) => copy.end(() => process.exit(code ?? 1)));',
      ].join("\n"),
    );
    const listed = await run(
      inspectorCli,
      ["--cli", process.execPath, tee, wire, main, "mcp-serve", fixture, "--method", "tools/list"],
      // Inspector CLI 1.0.3 finds its own package.json only when the working folder's parent holds
      // a package.json (it tests "../package.json" against the cwd): the repository's test/ folder does.
      join(root, "test"),
      { PATH: process.env.PATH ?? "", ...env },
    );
    expect(listed.code, listed.stderr).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string; inputSchema: unknown }[] };
    expect(tools.map((tool) => tool.name)).toEqual(["Greeter", "respond_to_request"]);
    expect(tools[0]?.inputSchema).toMatchObject({
      properties: { name: { type: "string", description: "Who to greet" } },
      required: ["name"],
    });
    const initialize = readFileSync(wire, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { id?: number; result?: { serverInfo?: { name: string } } })
      .find((message) => message.result?.serverInfo !== undefined);
    expect(initialize?.result?.serverInfo?.name).toBe("greeter-agents");
  }, 60_000);

  it("names a module without a package.json after its file", async () => {
    writeFileSync(
      join(cwd, "package.json"),
      "{}", // no name: the file's name is used
    );
    writeFileSync(join(cwd, "my-greeter.mjs"), `export { Greeter } from ${JSON.stringify(fixture)};\n`);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [main, "mcp-serve", "./my-greeter.mjs"],
        cwd,
        env: { PATH: process.env.PATH ?? "", ...env },
        stderr: "ignore",
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe("my-greeter");
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe.skipIf(!hasRedisServer)("embabel-ts worker, waiting and respond with <your module>", () => {
  let redis: TestRedis;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    worker = spawn(process.execPath, [main, "worker", fixture, "--redis", redis.url], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      let out = "";
      let err = "";
      worker?.stderr?.on("data", (chunk) => {
        err += chunk;
      });
      worker?.once("exit", (code) => reject(new Error(`the worker exited (${code}): ${err}`)));
      worker?.stdout?.on("data", (chunk) => {
        out += chunk;
        if (out.includes(`worker ${worker?.pid} `)) resolve();
      });
    });
  }, 60_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once("exit", resolve));
      worker.kill("SIGKILL");
      await exited;
    }
    await redis?.stop();
  });

  it("a worker runs the module's agent; waiting lists its wait; respond with the module answers it", async () => {
    const run = await cli(["run", fixture, "Ada", "--no-keep-runs", "--redis", redis.url], env, cwd);
    expect(run.code, run.stderr).toBe(3);
    const command = new RegExp(
      `embabel-ts respond ${fixture.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} (\\S+) (r1) approve\\|deny`,
    ).exec(run.stderr);
    expect(command, run.stderr).not.toBeNull();
    const processId = command?.[1] as string;

    const listed = await cli(["waiting", fixture, "--redis", redis.url], env, cwd);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${processId} Greeter`);
    expect(listed.stdout).toContain("r1 confirm: Greet Ada?");
    expect(listed.stdout).toContain(`Answer one: embabel-ts respond ${fixture} <process-id>`);

    const answered = await cli(
      // respond returns once the answer is stored; --wait shows how the run ended.
      ["respond", fixture, processId, "r1", "approve", "--wait", "60", "--redis", redis.url],
      env,
      cwd,
    );
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toContain("answered; queued for a worker");
    expect(answered.stdout).toContain("completed");
    expect(answered.stdout).toContain('"text": "Hello, Ada!"');
    expect((await cli(["waiting", fixture, "--redis", redis.url], env, cwd)).stdout).toContain(
      "No run is waiting.",
    );
  }, 90_000);
});

/** Runs a Node script to its end, collecting what it printed. */
function run(
  script: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
