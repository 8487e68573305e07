// The package as a user meets it: `npm pack`, then a fresh app of their own
// that installs the tarball with another zod 4 minor than ours (the lowest our
// peer range allows), type-checks every tested README block with the tsconfig
// the README documents, and runs them with node (after tsc) and with tsx.
// Installing needs the npm cache or the registry (--prefer-offline).
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";
import { jsonBlockUnder, testedTypeScriptBlocks } from "./support/readme-blocks.js";

const execFileAsync = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const tsc = join(root, "node_modules/typescript/bin/tsc");
// tsx as `node --import tsx` (one process a run, where the tsx command spawns two).
const tsxLoader = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
const blocks = testedTypeScriptBlocks();

/** The lowest version a caret range allows (`^4.1.8` → `4.1.8`). */
function floorOf(range: string): string {
  const match = /^\^(\d+\.\d+\.\d+)$/.exec(range);
  if (!match?.[1]) throw new Error(`zod's peer range should be a caret range, got '${range}'`);
  return match[1];
}
const appZod = floorOf(manifest.peerDependencies.zod ?? "");
/** TypeScript 7, the native compiler `npm i -D typescript` installs now (types default to [] there). */
const appTypeScript = "7.0.2";
const minorOf = (version: string) => version.split(".").slice(0, 2).join(".");

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function exec(file: string, args: readonly string[], cwd: string, timeoutMs = 120_000): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileAsync(file, [...args], {
      cwd,
      encoding: "utf8",
      timeout: timeoutMs,
      maxBuffer: 32 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof failed.code === "number" ? failed.code : 1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? failed.message,
    };
  }
}

/** Every installed copy of `name` under `directory`'s node_modules, nested ones included. */
function installedCopies(directory: string, name: string): string[] {
  const found: string[] = [];
  const visit = (modules: string): void => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      const packages = entry.startsWith("@")
        ? readdirSync(join(modules, entry)).map((inner) => join(modules, entry, inner))
        : [join(modules, entry)];
      for (const path of packages) {
        if (path.endsWith(`/${name}`)) found.push(path);
        visit(join(path, "node_modules"));
      }
    }
  };
  visit(join(directory, "node_modules"));
  return found;
}

let workDir: string;
let app: string;
let tarballFiles: string[];

beforeAll(async () => {
  ensureBuilt();
  workDir = mkdtempSync(join(tmpdir(), "embabel-pack-"));
  // --ignore-scripts: prepack would rebuild dist/ while other test files read it; ensureBuilt made it fresh.
  const pack = await exec(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", workDir], root);
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const [packed] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  if (!packed) throw new Error("npm pack reported no tarball");
  tarballFiles = packed.files.map((file) => file.path).sort();

  app = join(workDir, "app");
  const appManifest = { name: "readme-app", private: true, type: "module" };
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), `${JSON.stringify(appManifest, null, 2)}\n`);
  const install = await exec(
    npm,
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      join(workDir, packed.filename),
      `zod@${appZod}`,
      `@types/node@${manifest.devDependencies["@types/node"]}`,
      // What `npm i -D typescript` installs now: the app's own compiler, beside ours (5.9).
      `typescript@${appTypeScript}`,
    ],
    app,
    240_000,
  );
  if (install.code !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);

  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify(jsonBlockUnder("Use it in your project"), null, 2),
  );
  for (const block of blocks) writeFileSync(join(app, `${block.id}.ts`), block.code);
  // A user's own file with Node globals and built-ins: the README tsconfig's "types": ["node"] serves both compilers.
  writeFileSync(
    join(app, "uses-node.ts"),
    'import { readFileSync } from "node:fs";\nconsole.log(readFileSync(new URL(import.meta.url)).length > 0, process.version.startsWith("v"));\n',
  );
}, 300_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 120_000);

describe("npm pack", () => {
  it("ships the library: runtime JS (entry points and shared chunks) and .d.ts of src/ and the CLI's examples, no tests, no source maps", () => {
    expect(tarballFiles).toContain("package.json");
    expect(tarballFiles).toContain("README.md");
    for (const entry of ["index", "testing/index", "cli/main"]) {
      expect(tarballFiles).toContain(`dist/src/${entry}.js`);
      expect(tarballFiles).toContain(`dist/src/${entry}.d.ts`);
    }
    expect(tarballFiles).toContain("dist/examples/index.js");
    const built = tarballFiles.filter((path) => path.startsWith("dist/"));
    // Compiled JS and .d.ts, and the studio's static page (copied as is).
    expect(
      built.filter(
        (path) =>
          !/^dist\/(src|examples)\/.+\.(js|d\.ts)$/.test(path) && !path.startsWith("dist/src/studio/page/"),
      ),
    ).toEqual([]);
    const others = tarballFiles.filter((path) => !path.startsWith("dist/") && !path.startsWith("docs/"));
    // Besides dist/ and docs/: the package's own files and what an example needs at run time (an MCP
    // server it starts, the Agent Skills folders its config file names).
    expect(others).toEqual([
      "CHANGELOG.md",
      "README.md",
      "examples/mcp-weather/embabel.config.json",
      "examples/mcp-weather/weather-server.mjs",
      "examples/release-notes/embabel.config.json",
      "examples/release-notes/skills/changelog-style/SKILL.md",
      "examples/release-notes/skills/changelog-style/assets/heading.md",
      "examples/release-notes/skills/changelog-style/references/voice.md",
      "examples/release-notes/skills/semver-bump/SKILL.md",
      "examples/release-notes/skills/semver-bump/references/edge-cases.md",
      "examples/release-notes/skills/semver-bump/scripts/next_version.mjs",
      "package.json",
    ]);
  });

  it("ships docs/, so every relative link in the README resolves inside the installed package", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\(((?:docs|examples)\/[^)#\s]+)/g)].map(
      (match) => match[1] as string,
    );
    const docsLinks = links.filter((link) => link.startsWith("docs/"));
    expect(docsLinks.length).toBeGreaterThan(5);
    expect(docsLinks.filter((link) => !tarballFiles.includes(link))).toEqual([]);
    expect(tarballFiles.filter((path) => path.startsWith("docs/") && !path.endsWith(".md"))).toEqual([]);
    expect(tarballFiles.filter((path) => /\.test\.|\.map$|^dist\/test\//.test(path))).toEqual([]);
    // Every JS module a user can import has its types; the shared chunks (esbuild's code splitting) are internal.
    const js = tarballFiles.filter(
      (path) =>
        path.endsWith(".js") &&
        !path.startsWith("dist/src/studio/page/") &&
        !path.startsWith("dist/src/chunks/"),
    );
    expect(js.filter((path) => !tarballFiles.includes(path.replace(/\.js$/, ".d.ts")))).toEqual([]);
    expect(tarballFiles.filter((path) => path.startsWith("dist/src/chunks/")).length).toBeGreaterThan(0);
  });

  it("declares as peers only zod, the provider packages modelFromId loads and the queue packages scale-out loads", () => {
    // The sources that load them (built, they sit in shared chunks).
    const loaders: Record<string, string> = {
      "@ai-sdk/anthropic": "src/llm/model-id.ts",
      "@ai-sdk/openai": "src/llm/model-id.ts",
      "@ai-sdk/openai-compatible": "src/llm/model-id.ts",
      bullmq: "src/distributed/load-bullmq.ts",
      ioredis: "src/distributed/load-bullmq.ts",
    };
    const peers = Object.keys(manifest.peerDependencies).filter((name) => name !== "zod");
    expect(peers.sort()).toEqual(Object.keys(loaders).sort());
    for (const name of peers) {
      expect(readFileSync(join(root, loaders[name] as string), "utf8")).toContain(`"${name}"`);
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
    }
  });

  it("builds on prepack, so a fresh clone packs a dist/", () => {
    expect(manifest.scripts.prepack).toBe(
      "node scripts/build.mjs --clean && node scripts/copy-studio-page.mjs",
    );
  });
});

describe("a fresh app that installed the tarball", () => {
  it(`uses its own zod ${appZod} (a different minor than ours), one copy`, () => {
    expect(minorOf(appZod)).not.toBe(minorOf(manifest.devDependencies.zod ?? ""));
    // The MCP SDK v2 needs zod ^4.2 and keeps its own copy under its folder when the app's is older; it
    // takes our schemas as Standard Schemas, so the copies never meet. Everything else shares the app's.
    const copies = installedCopies(app, "zod").filter(
      (path) => !path.startsWith(join(app, "node_modules/@modelcontextprotocol/")),
    );
    expect(copies).toEqual([join(app, "node_modules/zod")]);
    const installed = JSON.parse(readFileSync(join(app, "node_modules/zod/package.json"), "utf8"));
    expect(installed.version).toBe(appZod);
  });

  it("type-checks every README block with the README's tsconfig in under 30 s of CPU", async () => {
    // The CPU time of tsc itself, measured inside its process (wall time depends on the machine's load).
    const measured = `process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("cpu-ms " + Math.round((u.user + u.system) / 1000) + "\\n"); });
process.argv = [process.argv[0], ${JSON.stringify(tsc)}, "-p", "."];
require(${JSON.stringify(tsc)});`;
    const check = await exec(process.execPath, ["-e", measured], app);
    expect(check.stdout).toBe("");
    expect(check.code).toBe(0);
    const cpuMs = Number(/cpu-ms (\d+)/.exec(check.stderr)?.[1]);
    expect(cpuMs).toBeGreaterThan(0);
    expect(cpuMs).toBeLessThan(30_000);
    for (const block of blocks) expect(existsSync(join(app, "dist", `${block.id}.js`))).toBe(true);
  }, 180_000);

  it(`type-checks every README block with TypeScript ${appTypeScript} and the same tsconfig`, async () => {
    const native = join(app, "node_modules/typescript/bin/tsc");
    const version = await exec(process.execPath, [native, "-v"], app);
    expect(version.stdout.trim()).toBe(`Version ${appTypeScript}`);
    const check = await exec(process.execPath, [native, "-p", ".", "--noEmit"], app);
    expect({ code: check.code, stdout: check.stdout }).toEqual({ code: 0, stdout: "" });
  }, 120_000);

  it("runs every README block with node, after tsc", async () => {
    const runs = await Promise.all(
      blocks.map((block) => exec(process.execPath, [join("dist", `${block.id}.js`)], app)),
    );
    for (const [index, run] of runs.entries()) {
      expect({ block: blocks[index]?.id, code: run.code, stderr: run.stderr }).toEqual({
        block: blocks[index]?.id,
        code: 0,
        stderr: "",
      });
    }
    expect(runs[0]?.stdout.split("\n")[0]).toBe("2 + 3 = 5");
  }, 180_000);

  it("runs every README block with tsx", async () => {
    const runs = await Promise.all(
      blocks.map((block) => exec(process.execPath, ["--import", tsxLoader, `${block.id}.ts`], app)),
    );
    for (const [index, run] of runs.entries()) {
      expect({ block: blocks[index]?.id, code: run.code, stderr: run.stderr }).toEqual({
        block: blocks[index]?.id,
        code: 0,
        stderr: "",
      });
    }
    expect(runs[0]?.stdout.split("\n")[0]).toBe("2 + 3 = 5");
  }, 180_000);

  it("loads the package with require() from a CommonJS module", async () => {
    writeFileSync(
      join(app, "require.cjs"),
      [
        'const { Tool } = require("embabel-ts");',
        'const { ScriptedModel } = require("embabel-ts/testing");',
        'const { z } = require("zod");',
        'const add = Tool.fromFunction("add", "Adds", z.object({ a: z.number(), b: z.number() }), String, ({ a, b }) => String(a + b));',
        'add.call(\'{"a":2,"b":3}\').then((result) => console.log(result.content, typeof ScriptedModel));',
      ].join("\n"),
    );
    const run = await exec(process.execPath, ["require.cjs"], app);
    expect(run).toEqual({ code: 0, stdout: "5 function\n", stderr: "" });
  }, 60_000);

  it(`gives a tool's zod input exactly the JSON Schema zod ${appZod} emits, key order included`, async () => {
    // zod 4.1.8 orders keys differently from our development zod, so the fast
    // converter's probe must turn it off and leave every schema to zod.
    writeFileSync(
      join(app, "schema.mjs"),
      [
        'import { Tool } from "embabel-ts";',
        'import { z } from "zod";',
        "const schema = z.object({",
        '  query: z.string().min(1).describe("What to look up"),',
        '  limit: z.number().int().min(1).max(100).optional().describe("Maximum results"),',
        '  mode: z.enum(["fast", "thorough"]).nullable().default("fast"),',
        "  tags: z.array(z.string()).max(3),",
        "});",
        'const tool = Tool.fromFunction("search", "Searches", schema, String, () => "");',
        'const { $schema, ...expected } = z.toJSONSchema(schema, { io: "input" });',
        "console.log(JSON.stringify(tool.definition.inputSchema.jsonSchema));",
        "console.log(JSON.stringify(expected));",
      ].join("\n"),
    );
    const run = await exec(process.execPath, ["schema.mjs"], app);
    expect(run.stderr).toBe("");
    const [ours, zods] = run.stdout.trim().split("\n");
    expect(ours).toContain('"query":{');
    expect(ours).toBe(zods);
  }, 60_000);

  it("serves the studio from embabel-ts/studio, showing the app's own run", async () => {
    expect(tarballFiles).toContain("dist/src/studio/index.d.ts");
    expect(tarballFiles).toContain("dist/src/studio/page/index.html");
    writeFileSync(
      join(app, "studio.mjs"),
      [
        'import { AgentPlatform, ProcessOptions } from "embabel-ts";',
        'import { startStudio } from "embabel-ts/studio";',
        'import { ScriptedModel } from "embabel-ts/testing";',
        "const studio = await startStudio({ port: 0 });",
        'const recorder = studio.recorder({ meta: { input: "from the app" } });',
        "const platform = AgentPlatform.create({ models: { default: new ScriptedModel() } });",
        'await platform.runInProcess(async () => "done", { processOptions: recorder.attach(ProcessOptions.DEFAULT) });',
        "recorder.close();",
        'const headers = { authorization: "Bearer " + studio.token };',
        "const page = await (await fetch(studio.origin, { headers })).text();",
        'const runs = await (await fetch(studio.origin + "/api/runs", { headers })).json();',
        'const refused = (await fetch(studio.origin + "/api/runs")).status;',
        'console.log(page.includes("/assets/studio.js"), runs.map((run) => run.input + ": " + run.status).join(), refused);',
        "await studio.close();",
      ].join("\n"),
    );
    const run = await exec(process.execPath, ["studio.mjs"], app);
    expect(run).toEqual({ code: 0, stdout: "true from the app: completed 401\n", stderr: "" });
  }, 60_000);

  it("says 'embabel-ts needs zod 4 (found 3.x)' at import when the app's zod is zod 3", async () => {
    // An app whose only zod is zod 3: the package as installed, beside a "zod" that is the
    // zod 3 API (shipped by zod 4 as zod/v3), found first by embabel-ts's own lookup.
    const zod3App = join(app, "zod3-app");
    cpSync(join(app, "node_modules/embabel-ts"), join(zod3App, "node_modules/embabel-ts"), {
      recursive: true,
    });
    const shim = join(zod3App, "node_modules/zod");
    mkdirSync(shim, { recursive: true });
    writeFileSync(
      join(shim, "package.json"),
      JSON.stringify({ name: "zod", version: "3.25.76", type: "module", exports: "./index.js" }),
    );
    writeFileSync(
      join(shim, "index.js"),
      `export * from ${JSON.stringify(pathToFileURL(join(app, "node_modules/zod/v3/index.js")).href)};\n`,
    );
    writeFileSync(
      join(zod3App, "main.mjs"),
      'import { Tool } from "embabel-ts";\nconsole.log(typeof Tool);\n',
    );
    const run = await exec(process.execPath, ["main.mjs"], zod3App);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "ConfigurationError: embabel-ts needs zod 4 (found 3.x). Install zod 4 in your project (npm i zod@^4.1.8); embabel-ts uses your copy of zod.",
    );
    expect(run.stderr).not.toContain("reading 'def'");
  }, 60_000);

  it("has the embabel-ts command, with its examples", async () => {
    const run = await exec(
      process.execPath,
      [join(app, "node_modules/embabel-ts/dist/src/cli/main.js"), "run", "star-news", "--scripted"],
      app,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("✔ completed");
    expect(existsSync(join(app, "node_modules/.bin/embabel-ts"))).toBe(true);
  }, 60_000);
});
