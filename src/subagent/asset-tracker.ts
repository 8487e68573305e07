import type { Tool } from "../tool/tool.js";
import type { Asset } from "./asset.js";
import { AssetAddingTool } from "./asset-adding-tool.js";

/** A filter deciding which returned assets are tracked. */
export type AssetFilter = (asset: Asset) => boolean;

/**
 * Keeps the assets of a conversation and wraps tools so that the assets they
 * return (as artifacts) are added automatically.
 */
export interface AssetTracker {
  /** The tracked assets, in the order they were added. */
  readonly assets: readonly Asset[];
  /** Adds `asset`; an implementation may ignore an id it already tracks. */
  addAsset(asset: Asset): void | Promise<void>;
  /** `tool`, wrapped so the assets it returns that pass `filter` are tracked. */
  addReturnedAssets(tool: Tool, filter?: AssetFilter): Tool;
  /** Each of `tools`, wrapped as by {@link AssetTracker.addReturnedAssets}. */
  addAnyReturnedAssets(tools: readonly Tool[], filter?: AssetFilter): Tool[];
}

/**
 * Base class of trackers: implement `assets` and `addAsset`; the tool
 * wrapping comes from here.
 */
export abstract class AbstractAssetTracker implements AssetTracker {
  abstract readonly assets: readonly Asset[];
  abstract addAsset(asset: Asset): void | Promise<void>;

  addReturnedAssets(tool: Tool, filter?: AssetFilter): Tool {
    return new AssetAddingTool<Asset>(tool, this, filter ? { filter } : {});
  }

  addAnyReturnedAssets(tools: readonly Tool[], filter?: AssetFilter): Tool[] {
    return tools.map((tool) => this.addReturnedAssets(tool, filter));
  }
}

/** A tracker in memory that ignores an asset whose id it already tracks. */
export class InMemoryAssetTracker extends AbstractAssetTracker {
  private readonly byId = new Map<string, Asset>();

  get assets(): readonly Asset[] {
    return [...this.byId.values()];
  }

  addAsset(asset: Asset): void {
    if (!this.byId.has(asset.id)) this.byId.set(asset.id, asset);
  }
}

/** Factories for {@link AssetTracker}. */
export const AssetTracker = {
  /** A new {@link InMemoryAssetTracker}. */
  inMemory(): InMemoryAssetTracker {
    return new InMemoryAssetTracker();
  },
};
