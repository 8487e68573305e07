import { DelegatingTool } from "./abstract-tool.js";
import { ArtifactSink, type ArtifactSinkLike } from "./artifact-sink.js";
import { matchingArtifacts } from "./matching-artifacts.js";
import { ToolCallContext } from "./tool-call-context.js";
import type { Tool, ToolCallOptions } from "./tool-interface.js";
import type { ToolResult } from "./tool-result.js";
import { type TypeLike, type TypeOf, TypeToken } from "./type-token.js";

/** Options of {@link ArtifactSinkingTool}, `Tool.sinkArtifacts` and `Tool.publishToBlackboard`. */
export interface ArtifactSinkingOptions<T> {
  /** Only artifacts it accepts are sunk; runs before `transform`. @default accept all */
  readonly filter?: (artifact: T) => boolean;
  /** Maps each accepted artifact to what is sunk (may change its type). @default identity */
  readonly transform?: (artifact: T) => unknown;
}

/**
 * Captures the artifacts of a tool's results and sends them to a sink. Only
 * artifact results are inspected; an array or Set artifact is sunk element by
 * element. Each value of the type that passes `filter` is transformed and
 * sunk, in order. The result is returned unchanged; when the tool throws,
 * nothing is sunk and the error propagates.
 */
export class ArtifactSinkingTool<L extends TypeLike = TypeLike> extends DelegatingTool {
  /** The artifact type captured. */
  readonly type: TypeToken<TypeOf<L>>;
  /** Where captured artifacts go (a function given as the sink is wrapped as one). */
  readonly sink: ArtifactSink;

  constructor(
    delegate: Tool,
    type: L,
    sink: ArtifactSinkLike,
    private readonly options: ArtifactSinkingOptions<TypeOf<L>> = {},
  ) {
    super(delegate);
    this.type = TypeToken.of(type) as TypeToken<TypeOf<L>>;
    this.sink = ArtifactSink.of(sink);
  }

  override async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options?: ToolCallOptions,
  ): Promise<ToolResult> {
    // Not gated again: a decorator's call is the gated call itself (same definition, metadata and input, admitted by whichever route called it).
    const result = await this.delegate.call(input, context, options);
    const { filter, transform } = this.options;
    for (const value of matchingArtifacts(result, (value) => this.type.is(value), filter)) {
      await this.sink.accept(transform ? transform(value) : value);
    }
    return result;
  }
}
