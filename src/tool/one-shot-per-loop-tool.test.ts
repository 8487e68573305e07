import { describe, expect, it } from "vitest";
import { DelegatingTool } from "./abstract-tool.js";
import { OneShotPerLoopTool } from "./one-shot-per-loop-tool.js";
import { Tool } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult as Results, type ToolResult } from "./tool-result.js";

const inLoop = (loopId: string) => ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: loopId });
const ADVICE = "Write your script now using the skill body above.";

function activator(results: () => ToolResult = () => Results.text("SKILL BODY")) {
  const calls: ToolCallContext[] = [];
  const tool = Tool.create(
    "github_workflows",
    "Activates the skill",
    ToolMetadata.create({ returnDirect: true }),
    (_input, context) => {
      calls.push(context);
      return results();
    },
  );
  return { tool, calls };
}

describe("OneShotPerLoopTool", () => {
  it("runs the delegate on the first call in a loop", async () => {
    const { tool, calls } = activator();
    const gated = new OneShotPerLoopTool(tool, ADVICE);
    expect(await gated.call("{}", inLoop("loop-1"))).toEqual(Results.text("SKILL BODY"));
    expect(calls).toHaveLength(1);
  });

  it("answers later calls in the same loop with the exact ALREADY LOADED text", async () => {
    const { tool, calls } = activator();
    const gated = new OneShotPerLoopTool(tool, ADVICE);
    await gated.call("{}", inLoop("loop-1"));
    const second = await gated.call("{}", inLoop("loop-1"));
    expect(second).toEqual(
      Results.text(
        "ALREADY LOADED. The body of 'github_workflows' was returned earlier in this turn — read it from your conversation history above. Do not call this tool again. Write your script now using the skill body above.",
      ),
    );
    expect(calls).toHaveLength(1);
  });

  it("runs once per distinct loop id", async () => {
    const { tool, calls } = activator();
    const gated = new OneShotPerLoopTool(tool, ADVICE);
    await gated.call("{}", inLoop("loop-1"));
    await gated.call("{}", inLoop("loop-2"));
    expect(calls).toHaveLength(2);
  });

  it("passes every call through without a loop id", async () => {
    const { tool, calls } = activator();
    const gated = new OneShotPerLoopTool(tool, ADVICE);
    await gated.call("{}");
    await gated.call("{}", ToolCallContext.EMPTY);
    expect(calls).toHaveLength(2);
  });

  it("keeps the delegate's definition and metadata (returnDirect)", () => {
    const { tool } = activator();
    const gated = new OneShotPerLoopTool(tool, ADVICE);
    expect(gated.definition).toBe(tool.definition);
    expect(gated.metadata.returnDirect).toBe(true);
    expect(gated).toBeInstanceOf(DelegatingTool);
    expect(gated.delegate).toBe(tool);
  });

  it("passes the context to the delegate", async () => {
    const { tool, calls } = activator();
    const context = inLoop("loop-1").with("tenantId", "acme");
    await new OneShotPerLoopTool(tool, ADVICE).call("{}", context);
    expect(calls[0]).toBe(context);
  });

  it("does not count a first call that returned an error", async () => {
    let attempt = 0;
    const { tool, calls } = activator(() =>
      ++attempt === 1 ? Results.error("not yet") : Results.text("BODY"),
    );
    const gated = new OneShotPerLoopTool(tool, ADVICE);
    expect((await gated.call("{}", inLoop("l"))).kind).toBe("error");
    expect(await gated.call("{}", inLoop("l"))).toEqual(Results.text("BODY"));
    expect((await gated.call("{}", inLoop("l"))).content).toMatch(/^ALREADY LOADED/);
    expect(calls).toHaveLength(2);
  });

  it("does not count a first call that threw, and rethrows", async () => {
    let attempt = 0;
    const { tool } = activator(() => {
      if (++attempt === 1) throw new Error("boom");
      return Results.text("BODY");
    });
    const gated = new OneShotPerLoopTool(tool, ADVICE);
    await expect(gated.call("{}", inLoop("l"))).rejects.toThrow("boom");
    expect((await gated.call("{}", inLoop("l"))).content).toBe("BODY");
  });
});
