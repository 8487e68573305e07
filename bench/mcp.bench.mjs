// One MCP tool call through embabel-ts (an McpTool: JSON arguments parsed,
// context converted to _meta, result mapped to a ToolResult) versus the MCP
// SDK client's own callTool with the same arguments and _meta, on the same
// stdio server and the same connection (McpClient.sdkClient()). Calls
// alternate one by one and each is timed on its own, so machine load and drift
// hit both sides alike; the figures are medians. The ratio is the median of
// BLOCKS blocks' ratios (each block: the median of its calls on each side), so
// a burst of another program's load moves one block, not the verdict.
// Target: ratio <= 1.05.
import { fileURLToPath } from "node:url";
import { McpClients, McpToolFactory, ToolCallContext } from "../dist/src/index.js";

const SERVER = fileURLToPath(new URL("../test/fixtures/mcp/tools-server.mjs", import.meta.url));
const WARMUP_CALLS = 300;
const CALLS = 9_000;
const BLOCKS = 9;

const clients = McpClients.fromConfig({
  mcpServers: { bench: { command: process.execPath, args: [SERVER] } },
});
const echo = await McpToolFactory.create(clients).requiredToolByName("echo");
const raw = await clients.get("bench").sdkClient();
const context = ToolCallContext.of({ tenantId: "acme", [ToolCallContext.LOOP_ID_KEY]: "loop-1" });
const input = JSON.stringify({ text: "hello" });

const sides = {
  async ours() {
    const result = await echo.call(input, context);
    if (result.content !== "hello") throw new Error(`ours: unexpected ${JSON.stringify(result)}`);
  },
  async sdk() {
    const result = await raw.callTool(
      { name: "echo", arguments: { text: "hello" }, _meta: { tenantId: "acme" } },
      undefined,
      { timeout: 60_000 },
    );
    if (result.content[0]?.text !== "hello") throw new Error(`sdk: unexpected ${JSON.stringify(result)}`);
  },
};

for (let index = 0; index < WARMUP_CALLS; index += 1) {
  await sides.ours();
  await sides.sdk();
}
const samples = { ours: [], sdk: [] };
for (let index = 0; index < CALLS; index += 1) {
  const order = index % 2 === 0 ? ["sdk", "ours"] : ["ours", "sdk"];
  for (const name of order) {
    const started = performance.now();
    await sides[name]();
    samples[name].push((performance.now() - started) * 1000);
  }
}
const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
const ours = median(samples.ours);
const sdk = median(samples.sdk);
const size = CALLS / BLOCKS;
const blockRatios = Array.from({ length: BLOCKS }, (_, block) => {
  const part = (values) => values.slice(block * size, (block + 1) * size);
  return median(part(samples.ours)) / median(part(samples.sdk));
});
const ratio = median(blockRatios);
console.log(`MCP tool call over stdio (echo), µs per call, median of ${CALLS} calls each, alternating`);
console.log(`  SDK client callTool  : ${sdk.toFixed(1)} µs/call`);
console.log(`  embabel-ts McpTool   : ${ours.toFixed(1)} µs/call`);
console.log(
  `  ratio (ours / SDK)   : ${ratio.toFixed(4)}x, median of ${BLOCKS} blocks of ${size} calls (${blockRatios.map((one) => one.toFixed(3)).join(", ")})`,
);
const pass = ratio <= 1.05;
console.log(`  target: ratio <= 1.05x  ${pass ? "PASS" : "FAIL"}`);
await clients.close();
if (!pass) process.exitCode = 1;
