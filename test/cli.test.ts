import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";

// The main job, as a user meets it: the built `embabel-ts` command, spawned
// with plain node, in a clean environment (no keys unless a test sets them).

const emptyDir = () => mkdtempSync(join(tmpdir(), "embabel-cli-"));

beforeAll(() => ensureBuilt(), 180_000);

describe("embabel-ts run --scripted", () => {
  it("runs star-news: plan, actions, tool calls and the result", async () => {
    const run = await cli(["run", "star-news", "Lynda, a Scorpio", "--scripted"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe(
      "star-news · agent StarNewsWriter · model scripted (the example's recorded replies from openai:gpt-4.1-mini; no network)",
    );
    expect(lines).toContain("input: Lynda, a Scorpio");
    expect(lines).toContain(
      "Plan extractStarPerson → retrieveHoroscope → writeup (goal StarNewsWriter.writeup)",
    );
    for (const action of ["extractStarPerson", "retrieveHoroscope", "writeup"]) {
      expect(lines).toContain(`▶ ${action}`);
      expect(lines.some((line) => line.startsWith(`✓ ${action} (`))).toBe(true);
    }
    expect(lines).toContain('  ⚙ lucky_number {"name":"Lynda"}');
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {4}↳ Lynda's lucky number today is 6\. \((<1ms|\d+ms)\)$/),
    );
    // Each LLM call with its recorded tokens and their price on the recorded model.
    const llmCalls = lines.filter((line) => line.startsWith("  ◆ LLM gpt-4.1-mini · "));
    expect(llmCalls).toHaveLength(3);
    for (const line of llmCalls)
      expect(line).toMatch(/ · [\d,]+ tokens \([\d,]+ in, [\d,]+ out\) · \$0\.\d{4} · /);
    expect(lines).toContain('  ⚙ compatible_signs {"sign":"Scorpio"}');
    const summary = lines.find((line) => line.startsWith("✔ completed")) ?? "";
    expect(summary).toMatch(/ · 3 actions · 3 LLM calls · 2 tool calls · [\d,]+ tokens · \$0\.\d{4}$/);
    expect(summary).not.toContain(" 0 tokens");
    expect(lines).toContain("Result:");
    expect(lines).toContain("  Lynda's stars: Trust your instinct about a new collaboration");
  });

  it("follows the input: another person and sign", async () => {
    const run = await cli(["run", "star-news", "Write one for Marco, he is a Leo", "--scripted"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('⚙ compatible_signs {"sign":"Leo"}');
    expect(run.stdout).toContain(
      "Marco, as a Leo, today's reading says: Someone notices the work you did quietly.",
    );
  });

  it("runs concert-planner: an unfolding facade, its tools, and a subagent indented under its tool call", async () => {
    const run = await cli([
      "run",
      "concert-planner",
      "Bach and Vivaldi in London for 200 guests",
      "--scripted",
    ]);
    expect(run.stderr).toBe(
      'note: --scripted replays replies recorded for the sample input ("A Mozart evening in Vienna for 500 people"): with another input the answer below is a recorded replay, not a model\'s answer to yours.\n',
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines).toContain("Plan planConcert → assembleConcert (goal ConcertPlanner.assembleConcert)");
    expect(lines).toContain("  ⚙ venue_tools {}");
    expect(lines).toContain("    + tools: venue_tools, find_venues, check_availability, venue_tools_context");
    expect(lines).toContain('  ⚙ find_venues {"city":"London","audienceSize":200}');
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {4}↳ \[\{"name":"Wigmore Hall","capacity":552\}\] \(/),
    );
    const call = lines.indexOf(
      '  ⚙ PerformanceFinder {"composers":["Bach","Vivaldi"],"era":"Baroque","maxResults":3}',
    );
    expect(call).toBeGreaterThan(0);
    expect(lines.slice(call + 1, call + 4)).toEqual([
      "      ▶ subagent PerformanceFinder",
      "      Plan findPerformances (goal PerformanceFinder.findPerformances)",
      "      ▶ findPerformances",
    ]);
    expect(lines).toContain('        ⚙ search_recordings {"composer":"Vivaldi","limit":5}');
    expect(lines).toContain("      ✓ subagent completed");
    expect(lines.some((line) => line.startsWith("✔ completed") && line.includes("1 subagent run"))).toBe(
      true,
    );
    expect(lines).toContain("  Wigmore Hall, 2026-04-02 (102 min)");
    expect(lines).toContain("    • Vivaldi: The Four Seasons (Il Giardino Armonico, 40 min)");
  });

  it("runs support-desk: the agentic tools' nested loops indented under their calls", async () => {
    const run = await cli(["run", "support-desk", "--scripted"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // The tool lines, without the LLM-call lines between them and each result's duration.
    const lines = run.stdout
      .split("\n")
      .filter((line) => !line.trimStart().startsWith("◆ LLM"))
      .map((line) => line.replace(/ \(<?[\d.]+m?s\)$/, ""));
    const diagnose = lines.findIndex((line) => line.startsWith("  ⚙ diagnose_issue "));
    expect(diagnose).toBeGreaterThan(0);
    expect(lines.slice(diagnose + 1, diagnose + 5)).toEqual([
      '      ⚙ check_order {"orderId":"A-1001"}',
      "        ↳ This tool is not yet available. You must first use: lookup_customer",
      '      ⚙ lookup_customer {"email":"ada@example.com"}',
      "        ↳ Found Ada Lovelace (ada@example.com)",
    ]);
    expect(lines).toContain("      ⚙ recent_orders {}");
    expect(lines).toContain(
      "    ↳ Order A-1001 arrived damaged (courier reported a dented box). A refund of $49.00 is due.",
    );
    expect(lines).toContain(
      "        ↳ This tool is not available in the current state (REQUESTED). It is only available in state: APPROVED",
    );
    expect(lines).toContain("        ↳ Refunded $49.00 for A-1001 [Current state: REFUNDED]");
    expect(lines).toContain("  ada@example.com · A-1001 · refunded");
  });

  it("runs code-mode: the program's inner tool calls indented under the code call", async () => {
    const run = await cli(["run", "code-mode", "--scripted"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n").map((line) => line.replace(/ \(<?[\d.]+m?s\)$/, ""));
    const code = lines.findIndex((line) => line.startsWith("  ⚙ run_code "));
    expect(code).toBeGreaterThan(0);
    const end = lines.indexOf('    ↳ {"orders":13,"total":1274}');
    expect(end).toBeGreaterThan(code);
    // Between the code call and its result: the 20 lookups (run together), each with its result under it.
    const inner = lines.slice(code + 1, end);
    expect(inner.filter((line) => line.startsWith("    ⚙ "))).toEqual(
      Array.from({ length: 20 }, (_, i) => `    ⚙ get_order {"id":${i + 1}}`),
    );
    expect(inner.filter((line) => line.startsWith('      ↳ {"id":'))).toHaveLength(20);
    expect(inner).toHaveLength(40);
    const summary = lines.find((line) => line.startsWith("✔ completed")) ?? "";
    expect(summary).toContain(" · 2 LLM calls · 21 tool calls · ");
  });

  it("runs release-notes with the Agent Skills its config file names, and --skills adds more", async () => {
    const run = await cli(["run", "release-notes", "--scripted", "--skills", "test/fixtures/skills"]);
    // The fixture release-notes skill allows a tool nobody gave: ignored, with one warning.
    expect(run.stderr).toMatch(
      /^\[embabel-ts\] warn: Skill 'release-notes' allows tools that were not given to its Skills \(ignored\): list_merged_changes\./,
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines).toContain('  ⚙ skills {"skill":"changelog-style"}');
    expect(lines).toContain("    + tools: read_skill_file");
    expect(lines).toContain('  ⚙ read_skill_file {"skill":"changelog-style","path":"references/voice.md"}');
    expect(lines).toContain('  ⚙ skills {"skill":"semver-bump"}');
    expect(lines).toContain("  ### Added");
    expect(lines).toContain("  - Adds an export button to every report");
  });

  it("stops before running when a --skills folder holds a broken SKILL.md", async () => {
    const dir = emptyDir();
    mkdirSync(join(dir, "broken"));
    writeFileSync(join(dir, "broken", "SKILL.md"), "---\nname: Broken\ndescription: x\n---\n");
    const run = await cli(["run", "release-notes", "--scripted", "--skills", dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim()).toBe(
      `error: Invalid skills (1 problem):\n  ${join(dir, "broken", "SKILL.md")}: name: 'Broken' may hold only lowercase letters, digits and single hyphens, not at the start or end`,
    );
  });

  it("runs every listed example on its sample input", async () => {
    const list = await cli(["list"]);
    expect(list.code).toBe(0);
    const names = [...list.stdout.matchAll(/^ {2}([a-z0-9-]+) {2,}/gm)].map((match) => match[1] as string);
    expect(names).toEqual([
      "star-news",
      "concert-planner",
      "research-brief",
      "mcp-weather",
      "support-desk",
      "release-notes",
      "refund-desk",
      "code-mode",
    ]);
    // Concurrently: one process per example, each a second or more on a busy machine (refund-desk waits for approval).
    const runs = await Promise.all(
      names.map((name) =>
        cli(["run", name, "--scripted", ...(name === "refund-desk" ? ["--approve-all"] : [])]),
      ),
    );
    runs.forEach((run, index) => {
      const name = names[index];
      expect({ name, code: run.code, stderr: run.stderr }).toEqual({ name, code: 0, stderr: "" });
      // Every recorded script reports a real model's tokens, priced as on the model it was recorded with.
      const summary = run.stdout.split("\n").find((line) => line.startsWith("✔ completed"));
      expect({ name, summary }).toEqual({
        name,
        summary: expect.stringMatching(/ · [1-9][\d,]* tokens · (.+ · )?\$0\.\d{4}$/),
      });
    });
  }, 90_000); // every example as its own CLI process, at once: past the default 20 s on a busy machine

  it("runs an example given as a module path", async () => {
    const run = await cli(["run", "./dist/examples/star-news/index.js", "Ada, an Aquarius", "--scripted"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Ada, as an Aquarius, today");
  });

  it("shows prompts and LLM replies with --verbose, for the subagent too", async () => {
    const run = await cli(["run", "concert-planner", "--scripted", "--verbose"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("  │ [user] Turn this request into a concert plan");
    expect(run.stdout).toContain("        │ [user] Find recorded performances for a concert programme.");
    expect(run.stdout).toContain("  │ LLM reply:");
  });

  it("prints no colour codes when output is not a terminal", async () => {
    const run = await cli(["run", "star-news", "--scripted"]);
    expect(run.stdout).not.toContain("\u001b[");
  });
});

describe("embabel-ts run without a provider", () => {
  it("exits non-zero and says exactly which variable to set, without a stack trace", async () => {
    const run = await cli(["run", "star-news", "Lynda, a Scorpio"], {}, emptyDir());
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("error: No LLM provider is configured. Set one of these and run again:");
    expect(run.stderr).toContain("export OPENAI_API_KEY=sk-...");
    expect(run.stderr).toContain("add --scripted");
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it("names the key a chosen model needs", async () => {
    const run = await cli(["run", "star-news"], { EMBABEL_MODEL: "anthropic:claude-sonnet-4-5" }, emptyDir());
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      "error: Model anthropic:claude-sonnet-4-5 needs ANTHROPIC_API_KEY. Set it (export ANTHROPIC_API_KEY=...) and run again, or add --scripted to run offline.",
    );
  });

  it("names the key --model openai:gpt-4.1 needs", async () => {
    const run = await cli(["run", "star-news", "--model", "openai:gpt-4.1"], {}, emptyDir());
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim()).toBe(
      "error: Model openai:gpt-4.1 needs OPENAI_API_KEY. Set it (export OPENAI_API_KEY=...) and run again, or add --scripted to run offline.",
    );
  });

  it("ends with status 1, the failed action and the reason when the provider cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const run = await cli(["run", "star-news"], {
      EMBABEL_MODEL: `openai-compatible:local-model@http://127.0.0.1:${port}/v1`,
    });
    expect(run.code).toBe(1);
    // A refused connection is retryable (the provider's APICallError.isRetryable): two retries, shown, then the failure.
    expect(run.stdout).toMatch(
      /^ {2}↻ retrying in \d\.\d s after Cannot connect to API: .*\(attempt 2 of 3\)$/m,
    );
    expect(run.stdout).toMatch(
      /^ {2}↻ retrying in \d\.\d s after Cannot connect to API: .*\(attempt 3 of 3\)$/m,
    );
    expect(run.stderr).toContain("· 2 LLM retries");
    expect(run.stdout).toMatch(/^✗ extractStarPerson failed: /m);
    expect(run.stderr).toMatch(/^✘ failed: /);
    expect(run.stdout).not.toContain("Result:");
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at /m);
  });

  it("reports a broken config file by name", async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, "embabel.config.json"), '{"models": {"default": 7}}');
    const run = await cli(["run", "star-news"], {}, dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Invalid config file ${join(dir, "embabel.config.json")}:`);
    expect(run.stderr).toContain("models.default:");
  });
});

describe("embabel-ts run <module path>", () => {
  it("says how to run a TypeScript example module: compile it, or run the command under tsx", async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, "mine.ts"), "export const example = {};\n");
    const run = await cli(["run", "./mine.ts", "--scripted"], {}, dir);
    expect(run.code).toBe(2);
    const [first, hint] = run.stderr.trim().split("\n");
    expect(first).toMatch(/^error: Cannot load .*mine\.ts: /);
    expect(hint).toMatch(
      /^Node runs JavaScript: compile \.\/mine\.ts \(tsc with "target": "ES2022"\) and pass the \.js file, install tsx \(npm i -D tsx\) so \.ts modules load as they are, or run the command under tsx: npx tsx .*dist\/src\/cli\/main\.js run \.\/mine\.ts$/,
    );
  });

  it("says what to change when a module still has decorators (tsc's esnext target)", async () => {
    const dir = emptyDir();
    // What tsc emits for a decorated class with "target": "esnext": the decorators are left in.
    writeFileSync(
      join(dir, "esnext.js"),
      [
        'import { llmTool } from "embabel-ts";',
        "class Tools {",
        '  @llmTool({ description: "Adds" })',
        "  add() { return 1; }",
        "}",
        "export const example = {};",
      ].join("\n"),
    );
    const run = await cli(["run", "./esnext.js", "--scripted"], {}, dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: Cannot load .*esnext\.js: Invalid or unexpected token\n/);
    expect(run.stderr).toContain(
      'The module still contains decorators (@llmTool, @agent, ...), which Node cannot run: compile it with "target": "ES2022" (not "esnext", which tsc --init writes), or run it with tsx.',
    );
  });
});

describe("npm start", () => {
  it("does not rebuild when dist/ is newer than every source", async () => {
    const marker = join(root, "dist/src/index.js");
    const before = statSync(marker).mtimeMs;
    const started = Date.now();
    const build = spawnSync(process.execPath, [join(root, "scripts/build.mjs"), "--if-stale"], {
      cwd: root,
      encoding: "utf8",
    });
    expect({ code: build.status, stderr: build.stderr }).toEqual({ code: 0, stderr: "" });
    expect(statSync(marker).mtimeMs).toBe(before);
    expect(Date.now() - started).toBeLessThan(10_000); // a full tsc build takes 15–25 s here
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(manifest.scripts.start).toBe(
      "node scripts/build.mjs --if-stale && node scripts/copy-studio-page.mjs && node dist/src/cli/main.js",
    );
  });
});

describe("embabel-ts usage", () => {
  it("prints the help and exits 2 when no command is given", async () => {
    const run = await cli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain('embabel-ts run <example|module> ["<input>"] [options]');
  });

  it("prints help", async () => {
    const run = await cli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('embabel-ts run <example|module> ["<input>"] [options]');
    expect(run.stdout).toContain("--scripted");
  });

  it("rejects an unknown example with status 2, listing the examples", async () => {
    const run = await cli(["run", "nope", "--scripted"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      "error: Unknown example 'nope'. Examples: star-news, concert-planner, research-brief, mcp-weather, support-desk, release-notes, refund-desk, code-mode. Run 'embabel-ts list' to see what they do, or give the path of your own module (./dist/my-agent.js).",
    );
  });

  it("rejects an empty input with status 2", async () => {
    const run = await cli(["run", "star-news", "", "--scripted"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: The input is empty\./);
  });

  it("rejects an unknown option with status 2", async () => {
    const run = await cli(["run", "star-news", "--fast"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      "error: Unknown option '--fast'. Run 'embabel-ts --help' for the options.",
    );
  });
});

// A local OpenAI-compatible server proves the non-scripted path: the model id
// from EMBABEL_MODEL, the provider package, HTTP, tool calls and the result.
describe("embabel-ts run against an OpenAI-compatible server on 127.0.0.1", () => {
  let server: Server;
  let baseURL: string;
  const received: { messages: { role: string }[]; tools?: { function: { name: string } }[] }[] = [];

  async function body(request: IncomingMessage): Promise<string> {
    let text = "";
    for await (const chunk of request) text += chunk;
    return text;
  }

  function reply(message: Record<string, unknown>, finishReason: string) {
    return {
      id: `chatcmpl-${received.length}`,
      object: "chat.completion",
      created: 0,
      model: "local-model",
      choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    };
  }

  const replies = [
    () => reply({ content: '{"name":"Lynda","sign":"Scorpio"}' }, "stop"),
    () =>
      reply(
        {
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "lucky_number", arguments: '{"name":"Lynda"}' },
            },
          ],
        },
        "tool_calls",
      ),
    () => reply({ content: '{"headline":"Stars align","text":"A lucky day, Lynda."}' }, "stop"),
  ];

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const chat = JSON.parse(await body(request));
      received.push(chat);
      const next = replies[received.length - 1];
      if (!next) {
        response.writeHead(500).end("script exhausted");
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(next()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("runs star-news on the model EMBABEL_MODEL names", async () => {
    const run = await cli(["run", "star-news", "Lynda, a Scorpio"], {
      EMBABEL_MODEL: `openai-compatible:local-model@${baseURL}`,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe(
      `star-news · agent StarNewsWriter · model openai-compatible:local-model@${baseURL} (from EMBABEL_MODEL)`,
    );
    expect(run.stdout).toContain('  ⚙ lucky_number {"name":"Lynda"}');
    expect(run.stdout).toContain("360 tokens");
    expect(run.stdout).toContain("cost unknown (no price for local-model)");
    expect(run.stdout).toContain("  Stars align");
    expect(received).toHaveLength(3);
    expect(received[1]?.tools?.map((tool) => tool.function.name)).toEqual([
      "lucky_number",
      "compatible_signs",
    ]);
  });
});
