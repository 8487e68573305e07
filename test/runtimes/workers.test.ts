import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../support/dist.js";
import { runtimeAvailable } from "../support/runtimes.js";
import {
  bundleWorker,
  COMPATIBILITY_DATE,
  type RunningWorkerd,
  startWorkerd,
  WORKERD,
  writeWorkerdConfig,
} from "../support/workerd.js";

// A Worker (test/fixtures/runtimes/worker.mjs) importing the built package by
// its name, bundled as wrangler bundles it, served by the real workerd on
// 127.0.0.1 with no outbound network: it runs an agent with a tool on the
// scripted model and answers the request with the agent's result.

const SERVICES = [
  // What a wrangler config with compatibility_flags = ["nodejs_compat"] asks for.
  { name: "withFlag", compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: ["nodejs_compat"] },
  // From 2026-08-04 nodejs_compat is on by default: no flag needed.
  { name: "byDate", compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: [] },
  // A date over two years back: nodejs_compat's second version (node:fs/promises, which the
  // bundle imports for features it does not use) is the flag's meaning from 2024-09-23.
  { name: "earliest", compatibilityDate: "2024-09-23", compatibilityFlags: ["nodejs_compat"] },
];

let dir: string;
let bundle: string;
let workerd: RunningWorkerd | undefined;
let imports: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  if (!runtimeAvailable(WORKERD)) return;
  dir = mkdtempSync(join(tmpdir(), "embabel-worker-"));
  bundle = join(dir, "worker.js");
  const metafile = await bundleWorker(join(root, "test/fixtures/runtimes/worker.mjs"), bundle);
  imports = Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((entry) => entry.external).map((entry) => entry.path),
  );
  const config = writeWorkerdConfig(bundle, SERVICES);
  workerd = await startWorkerd(
    config,
    SERVICES.map((service) => service.name),
  );
}, 180_000);

afterAll(async () => {
  await workerd?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function ask(service: string, request: string): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${workerd?.ports[service]}/`, {
    method: "POST",
    body: JSON.stringify({ request }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

describe.runIf(runtimeAvailable(WORKERD))("on Cloudflare Workers (workerd)", () => {
  it.each(SERVICES)("answers a request with the agent's result ($name)", async ({ name }) => {
    expect(await ask(name, "Lynda, a Scorpio")).toEqual({
      status: "completed",
      actions: ["extractPerson", "write"],
      // "process found": AgentProcess.current() (AsyncLocalStorage, from nodejs_compat) works inside the tool.
      result: { text: "Lynda, trust your instinct. Lynda's lucky number is 7 (process found)" },
      tools: [[], ["lucky_number"], ["lucky_number"]],
    });
  });

  it("keeps concurrent requests apart", async () => {
    const answers = (await Promise.all(
      ["Ada, a Leo", "Marco, a Virgo", "Lynda, a Scorpio"].map((request) => ask("withFlag", request)),
    )) as { result: { text: string } }[];
    expect(answers.map((answer) => answer.result.text.split(",")[0])).toEqual(["Ada", "Marco", "Lynda"]);
  });

  it("imports only Node built-ins that nodejs_compat provides, and nothing of MCP's stdio or HTTP transports", () => {
    expect(imports.every((path) => path.startsWith("node:"))).toBe(true);
    expect(imports).toContain("node:async_hooks");
    for (const unused of ["node:child_process", "node:http", "node:stream", "node:process"])
      expect(imports).not.toContain(unused);
  });

  it("is refused without nodejs_compat on a date before it became the default", async () => {
    const config = writeWorkerdConfig(
      bundle,
      [{ name: "noFlag", compatibilityDate: "2026-07-01", compatibilityFlags: [] }],
      "no-flag.capnp",
    );
    await expect(startWorkerd(config, ["noFlag"])).rejects.toThrow(/No such module "node:/);
  });

  it("logs no error, only that the nodejs_compat flag is now the default", () => {
    expect(workerd?.stderr().trim().split("\n")).toEqual([
      "service withFlag: The compatibility flag nodejs_compat became the default as of 2026-08-04 so does not need to be specified anymore.",
    ]);
  });
});
