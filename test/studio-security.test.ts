import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { memoryTerminal } from "../src/cli/terminal.js";
import { AgentPlatform, ProcessOptions, Tool, ToolMetadata, ToolResult } from "../src/index.js";
import { type StudioRunRequest, type StudioServer, startStudio } from "../src/studio/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { launchChromium } from "./support/browser.js";

// The studio's defences, through real HTTP on 127.0.0.1 and in headless Chromium.
const folder = mkdtempSync(join(tmpdir(), "embabel-studio-sec-"));
const keptDir = join(folder, "runs");
mkdirSync(keptDir);
const API_ROUTES = ["/api/runs", "/api/examples", "/api/runs/x", "/api/runs/x/events", "/api/runs/x/llm/y"];
const header = (runId: string, meta: Record<string, unknown> = {}) =>
  JSON.stringify({ format: "embabel-ts-trace", version: 1, runId, startedAt: 1_000, meta });
const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ processId: "p", timestamp: 1_000, ...fields });

// A crafted trace: an object where the example's name belongs, a plan whose actions are not a list, a line that is not JSON.
writeFileSync(
  join(keptDir, "crafted.jsonl"),
  [
    header("crafted", { example: { toString: 1 }, input: "crafted input" }),
    line({ seq: 1, type: "process-started", agent: "Crafted" }),
    line({ seq: 2, type: "plan-formulated", goal: "G", actions: "not-a-list", cost: 1 }),
    "this line is not JSON",
    line({ seq: 4, type: "process-finished", status: "completed", durationMs: 5 }),
    "",
  ].join("\n"),
);

let browser: Browser;
const started: StudioRunRequest[] = [];
let studio: StudioServer;

beforeAll(async () => {
  studio = await startStudio({
    port: 0,
    keptDir,
    models: ["default", "smart"],
    examples: [{ name: "echo", summary: "Echoes", sampleInput: "hi" }],
    startRun: async (request) => {
      started.push(request);
      throw new Error("not started in this test (Authorization: Bearer sk-test-SECRET-abcdef1234)");
    },
  });
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await studio?.close();
  rmSync(folder, { recursive: true, force: true });
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${studio.origin}/api/runs`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${studio.token}`, ...headers },
    body: JSON.stringify(body),
  });

describe("the studio's token", () => {
  it("is asked for by every /api route: none, a wrong one, or a wrong cookie is 401", async () => {
    expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
    expect(studio.url).toBe(`${studio.origin}/?token=${studio.token}`);
    for (const route of API_ROUTES) {
      for (const headers of <Record<string, string>[]>[
        {},
        { authorization: "Bearer wrong" },
        { cookie: `embabel-studio-${new URL(studio.origin).port}=wrong` },
      ]) {
        const response = await fetch(`${studio.origin}${route}`, { headers });
        expect(response.status, `${route} ${JSON.stringify(headers)}`).toBe(401);
        expect(await response.json()).toEqual({
          error: "This studio needs its token: open the URL it printed when it started.",
        });
      }
    }
    const unauthorisedRun = await fetch(`${studio.origin}/api/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ example: "echo" }),
    });
    expect(unauthorisedRun.status).toBe(401);
    expect(started).toEqual([]);
    const withToken = await fetch(`${studio.origin}/api/runs`, {
      headers: { authorization: `Bearer ${studio.token}` },
    });
    expect(withToken.status).toBe(200);
  });

  it("turns the printed URL into an HttpOnly, SameSite=Strict cookie and loads the page again without the token", async () => {
    const opened = await fetch(studio.url, { redirect: "manual" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/");
    const setCookie = opened.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(new RegExp(`^embabel-studio-${new URL(studio.origin).port}=${studio.token};`));
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain("Path=/");
    const cookie = setCookie.split(";")[0] as string;
    expect((await fetch(studio.origin, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${studio.origin}/api/runs`, { headers: { cookie } })).status).toBe(200);
    const page = await fetch(studio.origin);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain("Open the URL the studio printed when it started");
    expect((await fetch(`${studio.origin}/?token=wrong`, { redirect: "manual" })).status).toBe(401);
  });

  it("is not asked for with auth: none", async () => {
    const open = await startStudio({ port: 0, auth: "none" });
    try {
      expect(open.token).toBeUndefined();
      expect(open.url).toBe(`${open.origin}/`);
      expect((await fetch(`${open.origin}/api/runs`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it("works in Chromium from the printed URL, and a browser without it gets 401 for the page and the API", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(studio.url);
      expect(new URL(page.url()).search).toBe(""); // the token left the address bar
      await page.locator("#runs a", { hasText: "crafted input" }).waitFor({ timeout: 10_000 });
      const cookies = await context.cookies();
      expect(cookies).toEqual([
        expect.objectContaining({ httpOnly: true, sameSite: "Strict", value: studio.token }),
      ]);
      expect(await page.evaluate("document.cookie")).toBe(""); // HttpOnly: scripts cannot read it
    } finally {
      await context.close();
    }
    const stranger = await browser.newContext();
    try {
      const page = await stranger.newPage();
      const response = await page.goto(studio.origin);
      expect(response?.status()).toBe(401);
      const status = await page.evaluate(async () => (await fetch("/api/runs")).status);
      expect(status).toBe(401);
    } finally {
      await stranger.close();
    }
  }, 30_000);

  it("is printed by `embabel-ts studio` as the first URL on standard output; --no-token prints a URL without one, and a note", async () => {
    for (const args of [[], ["--no-token"]]) {
      const terminal = memoryTerminal();
      const controller = new AbortController();
      const running = runCli(["studio", "--port", "0", ...args], {
        terminal,
        env: { EMBABEL_RUNS_DIR: keptDir },
        cwd: folder,
        signal: controller.signal,
      });
      let printed: string | undefined;
      for (let tries = 0; !printed && tries < 200; tries += 1) {
        printed = /http:\/\/127\.0\.0\.1:\S+/.exec(terminal.stdout.join("\n"))?.[0];
        if (!printed) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      try {
        const origin = new URL(printed as string).origin;
        if (args.length === 0) {
          expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
          expect((await fetch(`${origin}/api/runs`)).status).toBe(401);
          expect(terminal.stderr.join("\n")).not.toContain("--no-token");
        } else {
          expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
          expect((await fetch(`${origin}/api/runs`)).status).toBe(200);
          expect(terminal.stderr.join("\n")).toContain(
            "note: --no-token: any program or user on this machine",
          );
        }
      } finally {
        controller.abort();
        await running;
      }
    }
  }, 30_000);
});

describe("starting a run from the page", () => {
  it("refuses a model that is not configured, a URL above all, and passes a configured one by name", async () => {
    const refused = await post({
      example: "echo",
      mode: "model",
      model: "openai-compatible:gpt@http://127.0.0.1:9/v1",
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error:
        "'openai-compatible:gpt@http://127.0.0.1:9/v1' is not a configured model. Configured models: default, smart.",
    });
    expect(started).toEqual([]);
    const examples = await fetch(`${studio.origin}/api/examples`, {
      headers: { authorization: `Bearer ${studio.token}` },
    });
    expect(await examples.json()).toMatchObject({ models: ["default", "smart"] });
    const chosen = await post({ example: "echo", mode: "model", model: "smart" });
    expect(started).toEqual([{ example: "echo", input: "hi", mode: "model", model: "smart" }]);
    // The run's failure comes back redacted.
    expect(await chosen.json()).toEqual({
      error: "not started in this test (Authorization: Bearer [REDACTED])",
    });
  });

  it("never sends the configured key to a URL the page names (the CLI's studio, a capture server on 127.0.0.1)", async () => {
    const received: string[] = [];
    const capture: Server = createServer((request, response) => {
      received.push(String(request.headers.authorization));
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => capture.listen(0, "127.0.0.1", resolve));
    const captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}/v1`;
    const terminal = memoryTerminal();
    const controller = new AbortController();
    const running = runCli(["studio", "--port", "0", "--no-token"], {
      terminal,
      env: {
        EMBABEL_RUNS_DIR: keptDir,
        OPENAI_COMPATIBLE_API_KEY: "sk-compat-SECRET-123456",
        OPENAI_API_KEY: "sk-openai-SECRET-123456",
      },
      cwd: folder,
      signal: controller.signal,
    });
    try {
      let origin: string | undefined;
      for (let tries = 0; !origin && tries < 200; tries += 1) {
        origin = /http:\/\/127\.0\.0\.1:\d+/.exec(terminal.stdout.join("\n"))?.[0];
        if (!origin) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const examples = (await (await fetch(`${origin}/api/examples`)).json()) as { models: string[] };
      expect(examples.models).toEqual(["default"]);
      const response = await fetch(`${origin}/api/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          example: "star-news",
          mode: "model",
          model: `openai-compatible:gpt@${captureUrl}`,
        }),
      });
      expect(response.status).toBe(400);
      expect(received).toEqual([]);
    } finally {
      controller.abort();
      await running;
      await new Promise((resolve) => capture.close(resolve));
    }
  }, 30_000);

  it("offers only the configured models in the page: a list, not a text field", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(studio.url);
      await page
        .locator("#model option", { hasText: "smart" })
        .waitFor({ state: "attached", timeout: 10_000 });
      expect(await page.locator("#model option").allTextContents()).toEqual([
        "the configured default",
        "default",
        "smart",
      ]);
      expect(await page.locator("input#model").count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 30_000);
});

describe("the studio's answers", () => {
  it("forbid framing on every answer: page, assets, API, errors", async () => {
    for (const path of [
      "/",
      "/assets/studio.js",
      "/api/runs",
      "/api/runs/none",
      "/assets/none",
      "/nowhere",
    ]) {
      const response = await fetch(`${studio.origin}${path}`);
      expect(response.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
    }
  });

  it("answer unknown asset names, those of Object.prototype included, with 404 and no stack", async () => {
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "..%2fstudio-server.ts"]) {
      const response = await fetch(`${studio.origin}/assets/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.text()).not.toMatch(/ at |ENOENT/);
    }
  });

  it("refuse a request without a Host header (HTTP/1.0), even with auth: none", async () => {
    const open = await startStudio({ port: 0, auth: "none" });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        let text = "";
        const socket = connect(Number(new URL(open.origin).port), "127.0.0.1", () =>
          socket.write("GET /api/runs HTTP/1.0\r\n\r\n"),
        );
        socket.on("data", (chunk) => {
          text += chunk;
        });
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
    } finally {
      await open.close();
    }
  });

  it("cannot be framed by a page on another port, in Chromium", async () => {
    const framing = createServer((_request, response) => {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(`<iframe id="f" src="${studio.url}" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((resolve) => framing.listen(0, "127.0.0.1", resolve));
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const blocked = new Promise<string>((resolve) =>
        page.on("console", (message) => {
          if (/frame-ancestors|X-Frame-Options|refused/i.test(message.text())) resolve(message.text());
        }),
      );
      await page.goto(`http://127.0.0.1:${(framing.address() as AddressInfo).port}/`);
      await expect(
        Promise.race([blocked, new Promise((resolve) => setTimeout(() => resolve("no message"), 5_000))]),
      ).resolves.toMatch(/frame-ancestors|X-Frame-Options|refused/i);
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      const framedText = frame
        ? await frame.evaluate("document.body ? document.body.textContent : ''").catch(() => "")
        : "";
      expect(framedText).not.toContain("New run");
    } finally {
      await context.close();
      await new Promise((resolve) => framing.close(resolve));
    }
  }, 30_000);
});

describe("traces the studio cannot fully show", () => {
  it("shows a malformed record as an error row, never a blank page, in Chromium", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(studio.url);
      await page.goto(`${studio.origin}/runs/crafted`);
      await page.locator(".run-head h1").waitFor({ timeout: 10_000 });
      expect(await page.locator(".run-head h1").textContent()).toContain('{"toString":1}');
      await expect(
        page.locator(".row[data-type=unreadable-record]").first().textContent(),
      ).resolves.toContain("line 4: not JSON");
      expect(await page.locator(".row", { hasText: "Crafted" }).count()).toBeGreaterThan(0);
      expect(await page.locator(".row .error").count()).toBeGreaterThanOrEqual(2);
    } finally {
      await context.close();
    }
  }, 30_000);

  it("opens a trace with a huge record: the record is cut, and looking again reads nothing new", async () => {
    const bigDir = join(folder, "big");
    mkdirSync(bigDir);
    const content = "y".repeat(24 * 1024 * 1024);
    writeFileSync(
      join(bigDir, "big.jsonl"),
      [
        header("big", { example: "big" }),
        line({ seq: 1, type: "process-started", agent: "Big" }),
        line({
          seq: 2,
          type: "tool-call-start",
          loopId: "l",
          toolCallId: "c",
          toolName: "huge",
          input: "{}",
        }),
        line({
          seq: 3,
          type: "tool-call-end",
          loopId: "l",
          toolCallId: "c",
          toolName: "huge",
          durationMs: 1,
          result: { kind: "text", content },
        }),
        line({ seq: 4, type: "process-finished", status: "completed", durationMs: 5 }),
        "",
      ].join("\n"),
    );
    const big = await startStudio({ port: 0, keptDir: bigDir, maxRecordBytes: 256 * 1024 });
    try {
      const get = (path: string) =>
        fetch(`${big.origin}${path}`, { headers: { authorization: `Bearer ${big.token}` } });
      const first = await get("/api/runs");
      expect(await first.json()).toEqual([expect.objectContaining({ id: "big", status: "completed" })]);
      const again = performance.now();
      await get("/api/runs");
      expect(performance.now() - again).toBeLessThan(500);
      const run = await get("/api/runs/big");
      const text = await run.text();
      expect(text.length).toBeLessThan(300 * 1024);
      const tool = JSON.parse(text).roots[0].children.find((node: { kind: string }) => node.kind === "tool");
      expect(tool.result.content).toMatch(
        /^y+ … \[cut: this record is \d+ bytes; the first 262144 are shown\]$/,
      );
    } finally {
      await big.close();
    }
  }, 30_000);

  it("cuts a live run's long strings too: the page never gets a whole 3 MB tool output", async () => {
    const live = await startStudio({ port: 0, maxRecordBytes: 64 * 1024 });
    try {
      const recorder = live.recorder({ meta: { example: "live-big" } });
      // No loop cap (maxResultChars: Infinity): the studio's own cut is what is tested.
      const huge = Tool.create(
        "huge",
        "Returns a lot",
        ToolMetadata.create({ maxResultChars: Number.POSITIVE_INFINITY }),
        async () => ToolResult.text("z".repeat(3_000_000)),
      );
      const model = new ScriptedModel([ScriptedModel.toolCall("huge", {}), ScriptedModel.text("done")]);
      const platform = AgentPlatform.create({ models: { default: model } });
      await platform.runInProcess((context) => context.ai().withTool(huge).generateText("go"), {
        processOptions: recorder.attach(ProcessOptions.DEFAULT),
      });
      recorder.close();
      const response = await fetch(`${live.origin}/api/runs/${recorder.header.runId}`, {
        headers: { authorization: `Bearer ${live.token}` },
      });
      const text = await response.text();
      expect(text.length).toBeLessThan(400 * 1024);
      // The trace recorder keeps at most 100,000 characters of a result; the page cuts what it gets to 64 KiB.
      expect(text).toMatch(/\[cut: this text is \d+ characters; the first 65536 are shown\]/);
    } finally {
      await live.close();
    }
  }, 30_000);
});
