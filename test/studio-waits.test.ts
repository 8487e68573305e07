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
  for (let tries = 0; !url && tries < 600; tries += 1) {
    const line = terminal.stdout.find((candidate) => candidate.includes("http://127.0.0.1:"));
    url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(line ?? "")?.[0] ?? "";
    if (!url) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!url) throw new Error(`The studio did not start: ${terminal.stderr.join("\n")}`);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 60_000);

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
    // A run waiting for a person says so, on the page and in the list.
    await expect(page.locator(".run-head .status").textContent()).resolves.toBe("waiting");
    await expect(page.locator(`#runs a[data-run="${runId}"] .status`).textContent()).resolves.toBe("waiting");

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
    const notFound: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    const runId = await startWaitingRun();
    await page.locator(".wait[data-request=r1] button.approve").click();
    await page.locator(".run-head .status.completed").waitFor({ timeout: 15_000 });
    await expect(runJson(runId)).resolves.toContain("Refunded $49.00 for A-1001.");

    // The wait reads as rows: who was asked what, with the arguments; who answered, how, after how long.
    const asked = page.locator(".row[data-type=awaiting-response]");
    await expect(asked.textContent()).resolves.toMatch(
      /waits for a person\s*r1\s*approve issue_refund.*"cents":4900/,
    );
    const answered = page.locator(".row[data-type=response-received]");
    await expect(answered.textContent()).resolves.toMatch(/r1\s*approved\s*by studio.*waited \d/);
    // The action that waited is not left `waiting` once answered; the one that ran again succeeded.
    const actions = page.locator(".row[data-kind=action]");
    await expect(actions.locator(".status").allTextContents()).resolves.toEqual(["answered", "succeeded"]);
    // Counts read as English.
    const facts = await page.locator(".run-head .facts").textContent();
    expect(facts).toContain("3 LLM calls");
    expect(facts).toContain("2 tool calls");
    expect(facts).not.toContain("subagent");

    // With the side panel open, the tree's rows show their whole text: arguments and costs are not cut.
    await page.locator(".row[data-kind=llm]").first().click();
    await page.locator("#detail:not([hidden])").waitFor();
    for (const row of await page.locator(".row[data-kind=llm], .row[data-kind=tool]").all()) {
      const cut = await row.locator(".label").evaluate((label) => {
        const box = label.getBoundingClientRect();
        return [...label.querySelectorAll("span")].some(
          (span) => span.getBoundingClientRect().right > box.right + 1,
        );
      });
      expect(cut, (await row.textContent()) ?? "").toBe(false);
    }
    await expect(page.locator(".row[data-kind=llm]").first().textContent()).resolves.toMatch(/\$0\.\d{4,5}/);
    expect(notFound).toEqual([]);
  }, 40_000);
});
