import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { memoryTerminal } from "../src/cli/terminal.js";
import { launchChromium } from "./support/browser.js";

// The studio command on a free port, in headless Chromium: a run started from
// the page waits for approval of its refund; the page shows the request with
// its arguments and Approve / Deny buttons, and answering resumes the run live.
const folder = mkdtempSync(join(tmpdir(), "embabel-studio-waits-"));
const controller = new AbortController();
const terminal = memoryTerminal();
let studio: Promise<number>;
let url: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  studio = runCli(["studio", "--port", "0"], {
    terminal,
    env: { EMBABEL_RUNS_DIR: join(folder, "runs") },
    cwd: folder,
    signal: controller.signal,
  });
  for (let tries = 0; !url && tries < 200; tries += 1) {
    const line = terminal.stdout.find((candidate) => candidate.includes("http://127.0.0.1:"));
    url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(line ?? "")?.[0] ?? "";
    if (!url) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!url) throw new Error(`The studio did not start: ${terminal.stderr.join("\n")}`);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  controller.abort();
  await studio;
  rmSync(folder, { recursive: true, force: true });
});

async function startWaitingRun(): Promise<string> {
  await page.goto(url);
  await page.selectOption("#example", "refund-desk");
  await page.click("#start");
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
  await page.locator(".waits .wait[data-request=r1]").waitFor({ timeout: 15_000 });
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop() as string);
}

/** The run as the page's API gives it, as text. */
function runJson(runId: string): Promise<string> {
  return page.evaluate(async (id) => JSON.stringify(await (await fetch(`/api/runs/${id}`)).json()), runId);
}

describe("a waiting run in the studio", () => {
  it("shows the request with its arguments; Deny with a reason resumes the run, and the model is told", async () => {
    const runId = await startWaitingRun();
    const request = page.locator(".wait[data-request=r1]");
    await expect(request.textContent()).resolves.toContain("r1 approve issue_refund");
    await expect(request.textContent()).resolves.toContain("Refund $49.00 for order A-1001?");
    await expect(request.locator("pre").textContent()).resolves.toContain('"cents": 4900');
    await expect(page.locator(".run-head .status").textContent()).resolves.toBe("running");

    // A bad answer is shown to the person; the run keeps waiting.
    const bad = await page.evaluate(
      async ([id]) => {
        const response = await fetch(`/api/runs/${id}/respond`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ requestId: "r9", response: { approved: true } }),
        });
        return { status: response.status, body: (await response.json()) as { error: string } };
      },
      [runId],
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("no open request 'r9'");

    await request.locator(".reason").fill("needs a photo");
    await request.locator("button.deny").click();
    await page.locator(".run-head .status.completed").waitFor({ timeout: 15_000 });
    await expect(page.locator("#waits").count()).resolves.toBe(0);
    const tool = page.locator(".row[data-kind=tool]", { hasText: "issue_refund" }).first();
    await expect(tool.textContent()).resolves.toContain("error");
    await expect(runJson(runId)).resolves.toContain("The user denied this call: needs a photo");
  }, 40_000);

  it("Approve runs the refund and the run completes", async () => {
    const runId = await startWaitingRun();
    await page.locator(".wait[data-request=r1] button.approve").click();
    await page.locator(".run-head .status.completed").waitFor({ timeout: 15_000 });
    await expect(runJson(runId)).resolves.toContain("Refunded $49.00 for A-1001.");
  }, 40_000);
});
