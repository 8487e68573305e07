import { describe, expect, it } from "vitest";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { AssetTracker, InMemoryAssetTracker } from "./asset-tracker.js";

const concert = (id: string, works: number) => ({
  id,
  works: Array.from({ length: works }, (_, i) => `w${i}`),
});

function returning(result: ToolResult, name = "concerts"): Tool {
  return Tool.create(name, "Returns concerts", () => result);
}

describe("InMemoryAssetTracker", () => {
  it("keeps assets in the order they were added", () => {
    const tracker = new InMemoryAssetTracker();
    tracker.addAsset({ id: "a" });
    tracker.addAsset({ id: "b" });
    expect(tracker.assets.map((asset) => asset.id)).toEqual(["a", "b"]);
  });

  it("ignores an asset whose id is already tracked", () => {
    const tracker = new InMemoryAssetTracker();
    const first = { id: "a", version: 1 };
    tracker.addAsset(first);
    tracker.addAsset({ id: "a", version: 2 } as { id: string });
    expect(tracker.assets).toEqual([first]);
  });
});

describe("AssetTracker.inMemory", () => {
  it("makes an empty in-memory tracker", () => {
    const tracker = AssetTracker.inMemory();
    expect(tracker).toBeInstanceOf(InMemoryAssetTracker);
    expect(tracker.assets).toEqual([]);
  });
});

describe("AssetTracker.addReturnedAssets", () => {
  it("tracks a returned asset and returns the result unchanged", async () => {
    const tracker = AssetTracker.inMemory();
    const result = ToolResult.withArtifact("a concert", concert("c1", 3));
    const tool = tracker.addReturnedAssets(returning(result));
    expect(await tool.call("{}")).toBe(result);
    expect(tracker.assets).toEqual([concert("c1", 3)]);
  });

  it("tracks each asset of an array artifact, skipping values that are not assets", async () => {
    const tracker = AssetTracker.inMemory();
    const tool = tracker.addReturnedAssets(
      returning(ToolResult.withArtifact("list", [{ id: "a" }, "x", 42, { id: "b" }])),
    );
    await tool.call("{}");
    expect(tracker.assets.map((asset) => asset.id)).toEqual(["a", "b"]);
  });

  it("applies the filter after the type check", async () => {
    const tracker = AssetTracker.inMemory();
    const seen: unknown[] = [];
    const tool = tracker.addReturnedAssets(
      returning(ToolResult.withArtifact("list", [concert("small", 2), "not an asset", concert("big", 3)])),
      (asset) => {
        seen.push(asset);
        return (asset as ReturnType<typeof concert>).works.length >= 3;
      },
    );
    await tool.call("{}");
    expect(tracker.assets.map((asset) => asset.id)).toEqual(["big"]);
    expect(seen.map((asset) => (asset as { id: string }).id)).toEqual(["small", "big"]);
  });

  it("tracks nothing for text and error results", async () => {
    const tracker = AssetTracker.inMemory();
    await tracker.addReturnedAssets(returning(ToolResult.text("hello"))).call("{}");
    await tracker.addReturnedAssets(returning(ToolResult.error("failed"))).call("{}");
    expect(tracker.assets).toEqual([]);
  });

  it("keeps the delegate's definition and returnDirect metadata", () => {
    const tracker = AssetTracker.inMemory();
    const delegate = Tool.create(
      "direct",
      "Answers directly",
      ToolMetadata.create({ returnDirect: true }),
      () => ToolResult.text("x"),
    );
    const tool = tracker.addReturnedAssets(delegate);
    expect(tool.definition).toBe(delegate.definition);
    expect(tool.metadata.returnDirect).toBe(true);
  });
});

describe("AssetTracker.addAnyReturnedAssets", () => {
  it("wraps every tool with the same filter", async () => {
    const tracker = AssetTracker.inMemory();
    const tools = tracker.addAnyReturnedAssets(
      [
        returning(ToolResult.withArtifact("1", { id: "important-1" }), "one"),
        returning(ToolResult.withArtifact("2", { id: "other-2" }), "two"),
      ],
      (asset) => asset.id.startsWith("important-"),
    );
    for (const tool of tools) await tool.call("{}");
    expect(tools.map((tool) => tool.definition.name)).toEqual(["one", "two"]);
    expect(tracker.assets.map((asset) => asset.id)).toEqual(["important-1"]);
  });

  it("maps an empty list to an empty list", () => {
    expect(AssetTracker.inMemory().addAnyReturnedAssets([])).toEqual([]);
  });
});
