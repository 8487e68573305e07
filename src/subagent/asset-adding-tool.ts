import { DelegatingTool } from "../tool/abstract-tool.js";
import { matchingArtifacts } from "../tool/matching-artifacts.js";
import type { Tool, ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolResult } from "../tool/tool-result.js";
import { type TypeLike, TypeToken } from "../tool/type-token.js";
import { Asset } from "./asset.js";
import type { AssetTracker } from "./asset-tracker.js";

/** Options of {@link AssetAddingTool}. */
export interface AssetAddingToolOptions<T> {
  /** The artifact type tracked (a class, a `domainType`, a zod schema). @default any {@link Asset} (an object with a string `id`) */
  readonly type?: TypeLike<T>;
  /** Turns an artifact of `type` into the asset tracked. @default the artifact itself, which must be an {@link Asset} */
  readonly converter?: (artifact: T) => Asset;
  /** Only artifacts it accepts are tracked; applied after the type check. @default accept all */
  readonly filter?: (artifact: T) => boolean;
}

/**
 * Tracks the artifacts a tool returns as assets. After each call, an artifact
 * result is inspected: an array or Set is tracked element by element; each
 * value of the type that passes the filter is converted and added to the
 * tracker. Text and error results track nothing. The result is returned
 * unchanged, and the delegate's definition, metadata (`returnDirect`) and the
 * call's context and signal pass through.
 */
export class AssetAddingTool<T = Asset> extends DelegatingTool {
  private readonly matches: (value: unknown) => value is T;
  private readonly converter: (artifact: T) => Asset;
  private readonly filter: (artifact: T) => boolean;

  constructor(
    delegate: Tool,
    /** Where the assets go. */
    readonly tracker: AssetTracker,
    options: AssetAddingToolOptions<T> = {},
  ) {
    super(delegate);
    if (options.type === undefined) {
      this.matches = Asset.isAsset as unknown as (value: unknown) => value is T;
    } else {
      const token = TypeToken.of(options.type) as TypeToken<T>;
      this.matches = (value): value is T => token.is(value);
    }
    this.converter = options.converter ?? ((artifact) => artifact as unknown as Asset);
    this.filter = options.filter ?? (() => true);
  }

  override async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    // Not gated again: a decorator's call is the gated call itself (same definition, metadata and input, admitted by whichever route called it).
    const result = await this.delegate.call(input, context, options);
    for (const artifact of matchingArtifacts(result, this.matches, this.filter)) {
      await this.tracker.addAsset(this.converter(artifact));
    }
    return result;
  }

  override toString(): string {
    return `AssetAddingTool(${this.definition.name})`;
  }
}
