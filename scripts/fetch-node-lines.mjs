// Fetches the Node versions test/fixtures/runtimes/node-lines.json lists from
// the npm registry (the node-<platform>-<arch> package of each, which holds
// bin/node) into node_modules/.cache/node-lines/<version>/, for
// test/runtimes/node-lines.test.ts. They are not dev dependencies because
// each would link its own `node` into node_modules/.bin, ahead of the Node
// that runs npm's scripts. Run it after `npm ci` (.ci/run does).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { versions } = JSON.parse(readFileSync(join(root, "test/fixtures/runtimes/node-lines.json"), "utf8"));
const platform = `${process.platform}-${process.arch}`;

for (const version of versions) {
  const target = join(root, "node_modules/.cache/node-lines", version);
  if (existsSync(join(target, "bin/node"))) continue;
  const download = mkdtempSync(join(tmpdir(), "node-lines-"));
  try {
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", `node-${platform}@${version}`, "--json", "--pack-destination", download], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }),
    );
    mkdirSync(target, { recursive: true });
    execFileSync("tar", [
      "xzf",
      join(download, packed.filename),
      "-C",
      target,
      "--strip-components=1",
      "package/bin/node",
    ]);
    console.log(
      `node ${version}: ${execFileSync(join(target, "bin/node"), ["--version"], { encoding: "utf8" }).trim()}`,
    );
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
}
