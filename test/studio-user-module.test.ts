import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/browser.js";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";

// `embabel-ts studio <your module>` (the built command) in headless Chromium:
// the page starts the module's agent, shows its wait as a wait, and Approve
// resumes it; a run of the module that exited while it waited says so, and how
// it can be answered.

const fixture = join(root, "test/fixtures/user-agents/greeter.js");
const folder = mkdtempSync(join(tmpdir(), "embabel-studio-module-"));
// A key that is never used (the agent calls no LLM): runs started from the page need a configured model.
const env = { OPENAI_API_KEY: "sk-test-never-sent", EMBABEL_RUNS_DIR: join(folder, "runs"), NO_COLOR: "1" };
let studio: ChildProcess;
let url: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureBuilt();
  studio = spawn(process.execPath, [main, "studio", fixture, "--port", "0"], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? "", ...env },
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
      if (found && out.includes("agents of greeter-agents: Greeter")) resolve(found);
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
  rmSync(folder, { recursive: true, force: true });
});

describe("embabel-ts studio <your module>", () => {
  it("starts the module's agent from the page, shows its wait, and Approve completes it", async () => {
    const notFound: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    await page.goto(url);
    await expect(page.locator("#example option").allTextContents()).resolves.toEqual(["Greeter"]);
    // No recorded script: the page runs it on the configured model.
    await expect(page.locator("input[name=mode][value=scripted]").isDisabled()).resolves.toBe(true);
    await expect(page.locator("input[name=mode][value=model]").isChecked()).resolves.toBe(true);
    await page.fill("#input", "Ada");
    await page.click("#start");
    await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    const request = page.locator(".waits .wait[data-request=r1]");
    await request.waitFor({ timeout: 15_000 });
    await expect(request.textContent()).resolves.toContain("r1 confirm: Greet Ada?");
    await expect(request.locator("pre").textContent()).resolves.toContain('"name": "Ada"');
    await expect(page.locator(".run-head .status").textContent()).resolves.toBe("waiting");

    await request.locator("button.approve").click();
    await page.locator(".run-head .status.completed").waitFor({ timeout: 15_000 });
    await expect(page.locator("#waits").count()).resolves.toBe(0);
    await expect(page.locator(".row[data-type=response-received]").textContent()).resolves.toMatch(
      /r1\s*approved\s*by studio/,
    );
    await expect(page.locator(".row[data-kind=action] .status").allTextContents()).resolves.toEqual([
      "answered",
      "succeeded",
    ]);
    const runId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() as string);
    const view = await page.evaluate(
      async (id) => JSON.stringify(await (await fetch(`/api/runs/${id}`)).json()),
      runId,
    );
    expect(view).toContain("Hello, Ada!");
    expect(notFound).toEqual([]);
  }, 60_000);

  it("shows a run that exited while it waited as such, with how it can be answered", async () => {
    // No terminal and no --approve-all: the run ends with status 3 and is kept, waiting.
    const run = await cli(["run", fixture, "Grace"], env, folder);
    expect(run.code, run.stderr).toBe(3);
    await page.goto(url.replace(/\?token=.*$/, ""));
    const entry = page.locator("#runs a", { hasText: "Grace" }).first();
    await entry.waitFor({ timeout: 15_000 });
    await entry.click();
    const note = page.locator("#exited-waiting");
    await note.waitFor({ timeout: 10_000 });
    await expect(note.textContent()).resolves.toContain(
      "The program that ran this run exited before these requests were answered",
    );
    await expect(note.locator("li").textContent()).resolves.toBe("r1 confirm: Greet Grace?");
    await expect(note.locator("code").textContent()).resolves.toMatch(
      /^embabel-ts respond \[<module>\] \S+ r1 approve --redis <url>$/,
    );
    // Nothing on the page offers to answer it.
    await expect(page.locator("button.approve").count()).resolves.toBe(0);
  }, 60_000);
});
