import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APICallError } from "@ai-sdk/provider";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { memoryTerminal } from "../src/cli/terminal.js";
import { AgentPlatform, ProcessOptions, TraceRecorder, TraceSink } from "../src/index.js";
import { startStudio } from "../src/studio/studio-server.js";
import { ScriptedModel } from "../src/testing/index.js";
import { launchChromium } from "./support/browser.js";
import { root } from "./support/dist.js";

/** The parts of a rendered element the test reads (this project compiles without the DOM types). */
interface Rendered {
  readonly textContent: string;
  readonly style: { readonly paddingLeft: string };
}

// The real studio command, served on a free port, driven in headless Chromium.
const folder = mkdtempSync(join(tmpdir(), "embabel-studio-"));
const runsDir = join(folder, "runs");
const badTrace = join(folder, "notes.jsonl");
const outputDir = join(root, "test-output");
const controller = new AbortController();
const terminal = memoryTerminal();
let studio: Promise<number>;
let url: string;
let origin: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  writeFileSync(badTrace, "these are my notes, not a trace\n");
  mkdirSync(outputDir, { recursive: true });
  studio = runCli(["studio", "--port", "0", badTrace], {
    terminal,
    env: { EMBABEL_RUNS_DIR: runsDir },
    cwd: folder,
    signal: controller.signal,
  });
  for (let tries = 0; !url && tries < 200; tries += 1) {
    // The first URL printed is the one to open: it carries this start's token.
    const line = terminal.stdout.find((candidate) => candidate.includes("http://127.0.0.1:"));
    url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(line ?? "")?.[0] ?? "";
    if (!url) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  origin = new URL(url).origin;
  if (!url) throw new Error(`The studio did not start: ${terminal.stderr.join("\n")}`);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  controller.abort();
  await studio;
  rmSync(folder, { recursive: true, force: true });
});

describe("embabel-ts studio in a browser", () => {
  it("runs an example from the page and shows its plan, unfolded tools, subagent, tool output and LLM calls", async () => {
    await page.goto(url);
    await page.selectOption("#example", "concert-planner");
    await page.fill("#input", "A Mozart evening in Vienna for 500 people");
    await page.click("#start");
    await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    await page.locator(".run-head .status.completed").waitFor({ timeout: 15_000 });

    // The plan, the unfolded facade, and the subagent under the tool call that started it.
    await expect(page.locator(".row[data-kind=plan]").first().textContent()).resolves.toContain(
      "planConcert → assembleConcert",
    );
    const facade = page.locator(".row[data-kind=tool]", { hasText: "venue_tools" }).first();
    await expect(facade.textContent()).resolves.toMatch(/\+ .*find_venues.*check_availability/);
    const rows = await page.locator(".row").evaluateAll((elements) =>
      elements.map((element) => ({
        kind: element.getAttribute("data-kind"),
        text: (element as unknown as Rendered).textContent.replace(/\s+/g, " "),
        indent: Number.parseInt(
          (element.querySelector(".label") as unknown as Rendered).style.paddingLeft,
          10,
        ),
      })),
    );
    const finderCall = rows.findIndex((row) => row.kind === "tool" && row.text.includes("PerformanceFinder"));
    const child = rows[finderCall + 1];
    expect(child?.kind).toBe("process");
    expect(child?.text).toContain("PerformanceFinder");
    expect(child?.text).toContain("subagent");
    expect(child?.indent).toBeGreaterThan(rows[finderCall]?.indent ?? 0);

    // A tool call shows its input and output.
    await page
      .locator(".row[data-kind=tool]")
      .filter({ has: page.locator(".name", { hasText: /^find_venues$/ }) })
      .first()
      .click();
    await expect(page.locator("#tool-input").textContent()).resolves.toContain('"city": "Vienna"');
    await expect(page.locator("#tool-output").textContent()).resolves.toContain("Konzerthaus");

    // An LLM call shows the messages and the tools it was offered, what the unfolding added marked.
    const afterUnfold = page.locator(".row[data-kind=llm]", { hasText: "5 tools" }).first();
    await afterUnfold.click();
    await page.locator("#offered-tools li").first().waitFor();
    const added = await page.locator("#offered-tools li.added b").allInnerTexts();
    expect(added).toEqual(expect.arrayContaining(["find_venues", "check_availability"]));
    expect(await page.locator(".message.new").count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(outputDir, "studio.png"), fullPage: false });

    // The run was kept, and is in the list.
    await expect(page.locator("#runs a", { hasText: "concert-planner" }).count()).resolves.toBe(1);
  }, 40_000);

  it("gives a readable page for a missing run id and for a file that is not a trace", async () => {
    await page.goto(`${origin}/runs/no-such-run`);
    await expect(page.locator(".error-page").textContent()).resolves.toContain(
      "There is no run 'no-such-run'. Pick one from the list.",
    );
    await page.locator("#runs a", { hasText: "notes.jsonl" }).click();
    const errorPage = page.locator(".error-page", { hasText: "This trace cannot be shown" });
    await errorPage.waitFor({ timeout: 5_000 });
    const message = await errorPage.textContent();
    expect(message).toContain("This trace cannot be shown");
    expect(message).toContain("is not an embabel-ts trace");
    expect(terminal.stderr.join("\n")).toContain("notes.jsonl is not an embabel-ts trace");
    await page.screenshot({ path: join(outputDir, "studio-bad-trace.png") });
  }, 20_000);

  it("shows an LLM call's retries on its row, in its detail and in the run's totals", async () => {
    const rateLimited = new APICallError({
      message: "Rate limit reached",
      url: "http://127.0.0.1/v1/chat/completions",
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { "retry-after-ms": "10" },
    });
    const model = new ScriptedModel([ScriptedModel.error(rateLimited), ScriptedModel.text("fine")]);
    const recorder = TraceRecorder.toFile(join(runsDir, "retried.jsonl"), { meta: { example: "retried" } });
    await AgentPlatform.create({ models: { default: model } }).runInProcess(
      (context) => context.ai().generateText("Hi"),
      { processOptions: recorder.attach(ProcessOptions.DEFAULT) },
    );
    recorder.close();
    await page.goto(`${origin}/runs/${recorder.header.runId}`);
    const row = page.locator(".row[data-kind=llm]").first();
    await expect(row.locator(".tag.retried").textContent()).resolves.toBe("retried ×1");
    await expect(page.locator(".run-head .facts").textContent()).resolves.toContain("1 LLM retry");
    await row.click();
    await expect(page.locator(".retries").textContent()).resolves.toBe(
      "retrying in 0.0 s after 429 (attempt 2 of 3)",
    );
  }, 20_000);

  it("updates a run in progress live, over server-sent events", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const live = await startStudio({
      port: 0,
      examples: [{ name: "waiter", summary: "Waits", sampleInput: "hello" }],
      startRun: async (_request, hooks) => {
        const recorder = new TraceRecorder(
          TraceSink.lines(() => {}),
          hooks,
        );
        const platform = AgentPlatform.create({ models: { default: new ScriptedModel() } });
        await platform.runInProcess(
          async () => {
            await gate;
            return "done";
          },
          { processOptions: recorder.attach(ProcessOptions.DEFAULT) },
        );
        recorder.close();
      },
    });
    try {
      await page.goto(live.url);
      await page.click("#start");
      await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
      await page.locator(".run-head .status.running").waitFor({ timeout: 5_000 });
      await page.locator("#live-badge:not([hidden])").waitFor({ timeout: 5_000 });
      release();
      await page.locator(".run-head .status.completed").waitFor({ timeout: 5_000 });
      await page.locator("#live-badge[hidden]").waitFor({ state: "attached", timeout: 5_000 });
    } finally {
      release();
      await live.close();
    }
  }, 30_000);
});
