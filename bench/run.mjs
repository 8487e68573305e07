// Runs every bench/*.bench.mjs in sequence, each in its own Node process, against dist/.
// Usage: npm run bench            (builds first)
//        node bench/run.mjs loop  (only benchmarks whose file name contains "loop")
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
if (!existsSync(join(here, "..", "dist", "src", "index.js"))) {
  console.error("dist/ is missing: run `npm run build` first (or `npm run bench`, which builds).");
  process.exit(1);
}
const filter = process.argv[2];
const files = readdirSync(here)
  .filter((file) => file.endsWith(".bench.mjs") && (!filter || file.includes(filter)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ["--expose-gc", join(here, file)], { stdio: "inherit" });
  if (run.status !== 0) {
    failed += 1;
    console.error(`${file} failed (exit ${run.status ?? run.signal})`);
  }
}
console.log(`\n${files.length - failed}/${files.length} benchmarks completed.`);
process.exit(failed === 0 ? 0 : 1);
