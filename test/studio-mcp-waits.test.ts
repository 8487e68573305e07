import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMcpServer, type McpHttpEndpoint, serveMcpOverHttp, Tool } from "../src/index.js";
import { launchChromium } from "./support/browser.js";
import { CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";

// `embabel-ts studio <module>` (the built command) in headless Chromium, the
// module's agent calling `pay` on an MCP 2026-07-28 server (createMcpServer in
// this test, named in the working directory's embabel.config.json) that asks a
// person's approval with input_required: the page shows the run waiting on a
// confirmation naming the server and its question, and Approve resumes it; the
// served tool runs once.

const paid: string[] = [];
const pay = Tool.requireApproval(
  Tool.fromFunction(
    "pay",
    "Pays an amount in cents (needs a person's approval)",
    z.object({ tag: z.string(), cents: z.number().int().positive() }),
    z.string(),
    (input) => {
      paid.push(`${input.tag} ${input.cents}`);
      return `paid ${input.cents} for ${input.tag}`;
    },
  ),
  { message: (input) => `Pay ${input.cents} cents for ${input.tag}?` },
);

const fixture = join(root, "test/fixtures/waits/remote-pay.mjs");
const folder = mkdtempSync(join(tmpdir(), "embabel-studio-mcp-"));
let endpoint: McpHttpEndpoint;
let studio: ChildProcess;
let url: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureBuilt();
  endpoint = await serveMcpOverHttp(() => createMcpServer({ name: "remote", tools: [pay] }));
  writeFileSync(
    join(folder, "embabel.config.json"),
    JSON.stringify({ mcpServers: { remote: { type: "http", url: endpoint.url } } }),
  );
  studio = spawn(process.execPath, [main, "studio", fixture, "--port", "0"], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? "", EMBABEL_RUNS_DIR: join(folder, "runs"), NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  studio.stderr?.on("data", (chunk) => {
    err += chunk;
  });
  url = await new Promise<string>((resolve, reject) => {
    studio.once("exit", (code) => reject(new Error(`the studio exited (${code}): ${err}`)));
    studio.stdout?.on("data", (chunk) => {
      out += chunk;
      const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out)?.[0];
      if (found) resolve(found);
    });
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (studio && studio.exitCode === null) {
    const exited = new Promise((resolve) => studio.once("exit", resolve));
    studio.kill("SIGINT");
    await exited;
  }
  await endpoint?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("embabel-ts studio: a 2026-07-28 server's approval", () => {
  it("shows as the run's confirmation, and Approve runs the served tool once", async () => {
    await page.goto(url);
    await page.locator("input[name=mode][value=scripted]").check();
    await page.fill("#input", '{"tag":"s1","cents":500}');
    await page.click("#start");
    await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    const request = page.locator(".waits .wait[data-request=r1]");
    await request.waitFor({ timeout: 15_000 });
    await expect(request.textContent()).resolves.toContain("MCP server 'remote' asks: Pay 500 cents for s1?");
    expect(paid).toEqual([]);

    await request.locator("button.approve").click();
    await page.locator(".run-head .status.completed").waitFor({ timeout: 15_000 });
    await expect(page.locator(".row[data-type=response-received]").textContent()).resolves.toMatch(
      /r1\s*approved\s*by studio/,
    );
    expect(paid).toEqual(["s1 500"]);
  }, 60_000);
});
