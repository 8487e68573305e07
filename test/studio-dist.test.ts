import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";

// The studio as a user starts it: the built command, serving the page from dist/.
const folder = mkdtempSync(join(tmpdir(), "embabel-studio-dist-"));
let child: ChildProcess | undefined;

beforeAll(() => ensureBuilt(), 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once("exit", resolve));
    child.kill("SIGINT");
    await exited;
  }
  rmSync(folder, { recursive: true, force: true });
});

function startStudio(): Promise<string> {
  child = spawn(process.execPath, [join(root, "dist/src/cli/main.js"), "studio", "--port", "0"], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? "" },
  });
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child?.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child?.stdout?.on("data", (chunk) => {
      stdout += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(stdout)?.[0];
      if (url) resolve(url);
    });
    child?.once("exit", (code) => reject(new Error(`studio exited ${code}: ${stderr}`)));
  });
}

describe("embabel-ts studio (built)", () => {
  it("serves the page and its assets from dist/, and stops on Ctrl-C", async () => {
    const url = await startStudio();
    const { origin } = new URL(url);
    const opened = await fetch(url, { redirect: "manual" });
    expect(opened.status).toBe(302);
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const page = await fetch(origin, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>embabel-ts studio</title>");
    for (const asset of ["studio.js", "studio.css"]) {
      expect((await fetch(`${origin}/assets/${asset}`)).status).toBe(200);
    }
    expect((await fetch(`${origin}/api/runs`)).status).toBe(401);
    expect(await (await fetch(`${origin}/api/runs`, { headers: { cookie } })).json()).toEqual([]);
    const exited = new Promise<number | null>((resolve) => child?.once("exit", resolve));
    child?.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 30_000);
});
