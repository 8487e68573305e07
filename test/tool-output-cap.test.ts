import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  AgentPlatform,
  McpToolFactory,
  ProcessOptions,
  Tool,
  ToolMetadata,
  ToolResult,
  TraceRecorder,
  TraceSink,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { startHttpFixture, tempLog } from "./support/mcp-fixture.js";

// What one tool result sends to the model is capped (security review M8):
// a real MCP server over Streamable HTTP and over stdio returning megabytes,
// and plain tools, through the public PromptRunner and processes.

const LARGE_SERVER = fileURLToPath(new URL("./fixtures/mcp/large-output-server.mjs", import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function platformWith(model: ScriptedModel, mcpServers: Record<string, unknown> = {}): AgentPlatform {
  const platform = AgentPlatform.create({ models: { default: model }, mcpServers });
  cleanups.push(() => platform.close());
  return platform;
}

/** The text the model was sent as the first tool result of its second request. */
function sentResult(model: ScriptedModel): string {
  const output = model.requests[1]?.toolResults[0]?.output as { value?: unknown } | undefined;
  return String(output?.value);
}

async function httpServer(): Promise<string> {
  const { dir, log } = tempLog();
  const { url, child } = await startHttpFixture(log, 0, "http", LARGE_SERVER);
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => {
      child.kill("SIGKILL");
    },
  );
  return url;
}

describe("tool output cap", () => {
  it("cuts a 2 MB MCP result over Streamable HTTP to 100,000 characters with a note, and the trace stays small", async () => {
    const url = await httpServer();
    const model = new ScriptedModel([
      ScriptedModel.toolCall("dump", { chars: 2_000_000 }),
      ScriptedModel.text("Too much."),
    ]);
    const platform = platformWith(model, { big: { url } });
    const dump = await McpToolFactory.create(platform.mcpClients).requiredToolByName("dump");
    const traceLines: string[] = [];
    const recorder = new TraceRecorder(TraceSink.lines((line) => traceLines.push(line)));
    const process = await platform.runInProcess(
      (context) => context.ai().withTool(dump).generateText("Dump it"),
      { processOptions: recorder.attach(ProcessOptions.DEFAULT) },
    );
    recorder.close();
    expect(process.status).toBe("completed");
    const sent = sentResult(model);
    expect(sent.startsWith("line 000001 ........\nline 000002")).toBe(true);
    expect(sent.indexOf("\n\n[Output")).toBe(100_000);
    expect(sent).toContain(
      "[Output of tool 'dump' cut: showing the first 100,000 of 2,000,000 characters (1,900,000 cut). " +
        "To see more, call the tool again with narrower arguments",
    );
    expect(sent.length).toBeLessThan(100_400);
    // The result once in tool-call-end and once in the next llm-call-start's messages: about 200 kB, not 4 MB.
    expect(traceLines.join("\n").length).toBeLessThan(250_000);
  }, 20_000);

  it("cuts an MCP result over stdio at the runner's maxToolResultChars", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("dump", { chars: 50_000 }),
      ScriptedModel.text("Done."),
    ]);
    const platform = platformWith(model, {
      big: { command: globalThis.process.execPath, args: [LARGE_SERVER] },
    });
    const dump = await McpToolFactory.create(platform.mcpClients).requiredToolByName("dump");
    await platform.ai().withTool(dump).withMaxToolResultChars(1_000).generateText("Dump it");
    const sent = sentResult(model);
    expect(sent.indexOf("\n\n[Output")).toBe(1_000);
    expect(sent).toMatch(/^line 000001 [\s\S]*line 000047 /);
    expect(sent).not.toContain("line 000048 ........\nline 000049");
    expect(sent.slice(1_000)).toContain("showing the first 1,000 of 50,000 characters (49,000 cut)");
  }, 20_000);

  it("leaves a result within the cap as it is", async () => {
    const exact = "x".repeat(100_000);
    const tool = Tool.create("exact", "Exactly at the cap", () => ToolResult.text(exact));
    const model = new ScriptedModel([ScriptedModel.toolCall("exact", {}), ScriptedModel.text("ok")]);
    await platformWith(model).ai().withTool(tool).generateText("Go");
    expect(sentResult(model)).toBe(exact);
  });

  it("keeps a plain tool's artifact whole on the blackboard while the model sees the cut text", async () => {
    const rows = Array.from({ length: 20_000 }, (_, index) => ({ id: index, name: `row ${index}` }));
    const tool = Tool.publishToBlackboard(
      Tool.create("rows", "All the rows", () => ToolResult.withArtifact(JSON.stringify(rows), { rows })),
    );
    const model = new ScriptedModel([ScriptedModel.toolCall("rows", {}), ScriptedModel.text("Many rows.")]);
    const process = await platformWith(model).runInProcess((context) =>
      context.ai().withTool(tool).withMaxToolResultChars(5_000).generateText("Rows?"),
    );
    expect(process.status).toBe("completed");
    const sent = sentResult(model);
    expect(sent.startsWith(JSON.stringify(rows).slice(0, 5_000))).toBe(true);
    expect(sent).toContain("showing the first 5,000 of");
    const kept = process.blackboard.objects.find(
      (value) => typeof value === "object" && value !== null && "rows" in value,
    ) as { rows: unknown[] } | undefined;
    expect(kept?.rows).toHaveLength(20_000);
  });

  it("lets a tool's metadata.maxResultChars win over the runner's cap", async () => {
    const tool = Tool.create("short", "A terse tool", ToolMetadata.create({ maxResultChars: 10 }), () =>
      ToolResult.text("abcdefghijklmnopqrstuvwxyz"),
    );
    const model = new ScriptedModel([ScriptedModel.toolCall("short", {}), ScriptedModel.text("ok")]);
    await platformWith(model).ai().withTool(tool).withMaxToolResultChars(1_000).generateText("Go");
    expect(sentResult(model)).toMatch(
      /^abcdefghij\n\n\[Output of tool 'short' cut: showing the first 10 of 26 characters \(16 cut\)/,
    );
  });

  it("never cuts a returnDirect tool's result, which is the answer", async () => {
    const answer = "y".repeat(150_000);
    const tool = Tool.create("report", "The report", ToolMetadata.create({ returnDirect: true }), () =>
      ToolResult.text(answer),
    );
    const model = new ScriptedModel([ScriptedModel.toolCall("report", {})]);
    expect(await platformWith(model).ai().withTool(tool).generateText("Report")).toBe(answer);
  });

  it("refuses a cap that is not a positive integer", () => {
    const model = new ScriptedModel([]);
    expect(() => platformWith(model).ai().withMaxToolResultChars(0)).toThrow(/maxToolResultChars/);
    expect(() => ToolMetadata.create({ maxResultChars: 2.5 })).toThrow(/maxResultChars/);
  });
});
