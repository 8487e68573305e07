// Bundle size for serverless: esbuild --bundle --minify of a program using
// Tool, PromptRunner via AgentPlatform and one @llmTool class, against the AI
// SDK's generateText + tool equivalent, bundled the same way in the same run.
// Targets: the two-tool program gzipped <= the AI SDK's; a bundle that uses MCP
// pays for MCP, one that does not, nothing of it. The tools + agent program
// (zod external in both) has a guard and an open target: the guard
// (AGENT_PROGRAM_GUARD, also judged by test/bundle.test.ts) fails a change that makes it
// heavier than when last measured; 1.0x, printed as OPEN while unmet, needs
// code the program reaches through AgentPlatform's methods (GOAP planning,
// human-in-the-loop waits, embeddings) to leave it: docs/internals/benchmarks.md
// (bench/support/bundle-areas.mjs weighs each area).
import { fileURLToPath } from "node:url";
import { AGENT_PROGRAM_GUARD, bundleSize } from "./support/bundle-size.mjs";

const entry = (name) => fileURLToPath(new URL(`./support/bundle/${name}.ts`, import.meta.url));
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const ours = await bundleSize(entry("tool-program"));
const ai = await bundleSize(entry("ai-sdk-program"));
const mcp = await bundleSize(entry("mcp-program"));
// The shape of the published weight check: a tools + agent program, zod left
// out of both bundles (the application's own dependency either way).
const agentOurs = await bundleSize(entry("agent-program"), ["zod"]);
const agentAi = await bundleSize(entry("ai-sdk-program"), ["zod"]);
const top = (sizes) =>
  Object.entries(sizes.byPackage)
    .sort((left, right) => right[1] - left[1])
    .slice(0, 6)
    .map(([name, bytes]) => `${name} ${kb(bytes)}`)
    .join(", ");
console.log("Bundle of a two-tool program (esbuild --bundle --minify, ESM, node)");
console.log(`  AI SDK generateText + tool : ${kb(ai.bytes)} min, ${kb(ai.gzipped)} gzipped  (${top(ai)})`);
console.log(
  `  embabel-ts                 : ${kb(ours.bytes)} min, ${kb(ours.gzipped)} gzipped  (${top(ours)})`,
);
console.log(`  embabel-ts with MCP        : ${kb(mcp.bytes)} min, ${kb(mcp.gzipped)} gzipped  (${top(mcp)})`);
const ratio = ours.gzipped / ai.gzipped;
console.log(
  `  gzipped ratio (ours / AI SDK) : ${ratio.toFixed(2)}x  target <= 1.0x  ${ratio <= 1 ? "PASS" : "FAIL"}`,
);
const agentRatio = agentOurs.gzipped / agentAi.gzipped;
console.log("Bundle of a tools + agent program, zod external in both");
console.log(
  `  AI SDK generateText + tool : ${kb(agentAi.bytes)} min, ${kb(agentAi.gzipped)} gzipped  (${top(agentAi)})`,
);
console.log(
  `  embabel-ts (agent + tool)  : ${kb(agentOurs.bytes)} min, ${kb(agentOurs.gzipped)} gzipped  (${top(agentOurs)})`,
);
console.log(
  `  gzipped ratio (ours / AI SDK) : ${agentRatio.toFixed(3)}x  guard <= ${AGENT_PROGRAM_GUARD}x  ${agentRatio <= AGENT_PROGRAM_GUARD ? "PASS" : "FAIL"}`,
);
console.log(
  `  ${agentRatio <= 1 ? "MET " : "OPEN"} target <= 1.0x: ${agentRatio <= 1 ? "met" : `${((agentOurs.gzipped - agentAi.gzipped) / 1024).toFixed(1)} KB gzipped over the AI SDK's`}`,
);
// The MCP SDK: v1's one package, or v2's client and the core it shares with the server.
const MCP_SDK = ["@modelcontextprotocol/sdk", "@modelcontextprotocol/client", "@modelcontextprotocol/core"];
const mcpFree =
  !MCP_SDK.some((name) => name in ours.byPackage) &&
  !("ajv" in ours.byPackage) &&
  !ours.builtins.some((name) => /(^|:)child_process$/.test(name)) &&
  "@modelcontextprotocol/client" in mcp.byPackage;
console.log(
  `  MCP SDK, ajv and child_process only in the bundle that uses MCP : ${mcpFree ? "PASS" : "FAIL"}  (MCP adds ${kb(mcp.gzipped - ours.gzipped)} gzipped)`,
);
console.log(`  Node built-ins the MCP-free bundle imports: ${ours.builtins.join(", ") || "none"}`);
if (ratio > 1 || agentRatio > AGENT_PROGRAM_GUARD || !mcpFree) process.exitCode = 1;
