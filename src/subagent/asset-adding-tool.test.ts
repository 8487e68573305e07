import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { AssetAddingTool } from "./asset-adding-tool.js";
import { AssetTracker } from "./asset-tracker.js";

class Performance {
  constructor(
    readonly title: string,
    readonly year: number,
  ) {}
}

describe("AssetAddingTool", () => {
  it("converts artifacts of a given class into assets", async () => {
    const tracker = AssetTracker.inMemory();
    const delegate = Tool.create("find", "Finds", () =>
      ToolResult.withArtifact("two", new Set([new Performance("Requiem", 1791), "noise"])),
    );
    const tool = new AssetAddingTool(delegate, tracker, {
      type: Performance,
      converter: (performance) => ({ id: `${performance.title}-${performance.year}` }),
    });
    await tool.call("{}");
    expect(tracker.assets).toEqual([{ id: "Requiem-1791" }]);
  });

  it("matches a domain type by its schema", async () => {
    const tracker = AssetTracker.inMemory();
    const Report = domainType("Report", z.object({ id: z.string(), pages: z.number() }));
    const delegate = Tool.create("report", "Reports", () =>
      ToolResult.withArtifact("r", [{ id: "r1", pages: 3 }, { id: "r2" }]),
    );
    await new AssetAddingTool(delegate, tracker, { type: Report }).call("{}");
    expect(tracker.assets).toEqual([{ id: "r1", pages: 3 }]);
  });

  it("passes the input, the context and the signal to the delegate", async () => {
    const seen: unknown[] = [];
    const delegate = Tool.create("echo", "Echoes", (input, context) => {
      seen.push(input, context.get("tenant"));
      return ToolResult.text("ok");
    });
    const tool = new AssetAddingTool(delegate, AssetTracker.inMemory());
    await tool.call('{"q":1}', ToolCallContext.of({ tenant: "acme" }));
    expect(seen).toEqual(['{"q":1}', "acme"]);
  });

  it("lets a delegate's exception propagate without tracking anything", async () => {
    const tracker = AssetTracker.inMemory();
    const delegate = Tool.create("boom", "Fails", () => {
      throw new Error("down");
    });
    await expect(new AssetAddingTool(delegate, tracker).call("{}")).rejects.toThrow("down");
    expect(tracker.assets).toEqual([]);
  });

  it("names itself after the delegate", () => {
    const delegate = Tool.create("find", "Finds", () => ToolResult.text(""));
    expect(String(new AssetAddingTool(delegate, AssetTracker.inMemory()))).toBe("AssetAddingTool(find)");
  });
});
