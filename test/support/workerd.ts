import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { build, type Metafile, type Plugin } from "esbuild";
import { root } from "./dist.js";
import type { Runtime } from "./runtimes.js";

/** Cloudflare's Workers runtime, from the `workerd` package (its binary comes in `@cloudflare/workerd-<platform>`). */
export const WORKERD: Runtime = {
  name: "workerd",
  path: join(root, "node_modules/.bin/workerd"),
  install: "npm ci installs the dev dependency 'workerd'",
  runScript: (file) => ["serve", file],
};

/** The newest compatibility date this workerd knows (its version's date). */
export const COMPATIBILITY_DATE = "2026-11-17";

const NODE_BUILTINS = new Set(builtinModules);

/**
 * What wrangler does for `nodejs_compat`: a Node built-in, named with or
 * without `node:`, stays an import of `node:<name>` that workerd provides;
 * a CommonJS `require()` of one becomes that import too (an ES module bundle
 * has no `require`).
 */
const nodejsCompat: Plugin = {
  name: "nodejs-compat",
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, "");
      if (!args.path.startsWith("node:") && !NODE_BUILTINS.has(name.split("/")[0] as string))
        return undefined;
      if (args.kind === "require-call") return { path: `node:${name}`, namespace: "require-node-builtin" };
      return { path: `node:${name}`, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: "require-node-builtin" }, ({ path }) => ({
      contents: `import builtin from "${path}"; module.exports = builtin;`,
      loader: "js",
    }));
  },
};

/**
 * Bundles `entry` into `outfile` as wrangler bundles a Worker (the esbuild
 * options workerd and wrangler use: ES module, es2024, the `workerd`, `worker`
 * and `browser` export conditions, `cloudflare:*` left to the runtime), minified.
 */
export async function bundleWorker(entry: string, outfile: string): Promise<Metafile> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*", "workerd:*"],
    plugins: [nodejsCompat],
    metafile: true,
    logLevel: "silent",
  });
  return result.metafile;
}

/** One Worker in a workerd config: its name, compatibility date and flags. */
export interface WorkerService {
  readonly name: string;
  readonly compatibilityDate: string;
  readonly compatibilityFlags: readonly string[];
}

/**
 * Writes a workerd config (`file`, beside `bundle`) serving it once per
 * service, each on its own socket on 127.0.0.1 (port 0: workerd picks a free
 * one), with no outbound network, and returns its path.
 */
export function writeWorkerdConfig(
  bundle: string,
  services: readonly WorkerService[],
  file = "config.capnp",
): string {
  const list = (items: readonly string[]) => items.map((item) => JSON.stringify(item)).join(", ");
  const config = [
    `using Workerd = import "/workerd/workerd.capnp";`,
    `const config :Workerd.Config = (`,
    `  services = [${services.map((service) => `(name = "${service.name}", worker = .${service.name})`).join(", ")}],`,
    `  sockets = [${services
      .map(
        (service) =>
          `(name = "${service.name}", address = "127.0.0.1:0", http = (), service = "${service.name}")`,
      )
      .join(", ")}],`,
    `);`,
    ...services.map((service) =>
      [
        `const ${service.name} :Workerd.Worker = (`,
        `  modules = [(name = "worker.js", esModule = embed "${bundle.split("/").at(-1)}")],`,
        `  compatibilityDate = "${service.compatibilityDate}",`,
        `  compatibilityFlags = [${list(service.compatibilityFlags)}],`,
        `);`,
      ].join("\n"),
    ),
  ].join("\n");
  const path = join(bundle, "..", file);
  writeFileSync(path, `${config}\n`);
  return path;
}

/** A running workerd: the port of each socket, what it wrote on stderr, and how to stop it. */
export interface RunningWorkerd {
  readonly ports: Record<string, number>;
  readonly stderr: () => string;
  readonly stop: () => Promise<void>;
}

/**
 * Starts `workerd serve config` and resolves once every socket listens (workerd
 * reports each port on its control fd), or rejects with its stderr when it exits first.
 */
export function startWorkerd(
  config: string,
  sockets: readonly string[],
  timeoutMs = 30_000,
): Promise<RunningWorkerd> {
  const child: ChildProcess = spawn(WORKERD.path, ["serve", config, "--control-fd=3"], {
    cwd: join(config, ".."),
    env: { PATH: process.env.PATH ?? "" },
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const ports: Record<string, number> = {};
    let control = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`workerd did not listen within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`workerd exited (${code}) before listening: ${stderr}`));
    });
    (child.stdio[3] as Readable).on("data", (chunk) => {
      control += chunk;
      for (const line of control.split("\n").slice(0, -1)) {
        const event = JSON.parse(line) as { event: string; socket: string; port: number };
        if (event.event === "listen") ports[event.socket] = event.port;
      }
      control = control.slice(control.lastIndexOf("\n") + 1);
      if (sockets.every((socket) => ports[socket] !== undefined)) {
        clearTimeout(timer);
        resolve({ ports, stderr: () => stderr, stop });
      }
    });
  });
}
