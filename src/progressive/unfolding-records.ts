import type { ToolCallContext } from "../tool/tool-call-context.js";
import type { ToolDefinition } from "../tool/tool-definition.js";
import type { Unfolding, UnfoldingCall } from "../tool/unfolding.js";

/** Builds a call's unfolding for the definition the facade was offered under. */
export type BuildUnfolding = (definition: ToolDefinition) => Unfolding;

/** Loops remembered per tool, and calls per loop; the oldest are forgotten first. */
const MAX_LOOPS = 16;
const MAX_CALLS_PER_LOOP = 16;

function forgetOldest<K, V>(map: Map<K, V>, max: number): void {
  if (map.size <= max) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}

/** `build`, run once per definition in a row, so repeated lookups see the same tools. */
function memoized(build: BuildUnfolding): BuildUnfolding {
  let last: { readonly definition: ToolDefinition; readonly unfolding: Unfolding } | undefined;
  return (definition) => {
    if (last?.definition !== definition) last = { definition, unfolding: build(definition) };
    return last.unfolding;
  };
}

/**
 * What a facade's (or guide's) latest calls unfolded, per loop id and input;
 * the store behind `UnfoldingSource.unfoldingFor`. Bounded: a few recent loops,
 * a few recent calls each.
 */
export class UnfoldingRecords {
  private readonly loops = new Map<string, Map<string, BuildUnfolding | undefined>>();

  /** Records what the call with `input` in `context`'s loop unfolded (`undefined`: nothing). */
  record(context: ToolCallContext, input: string, build: BuildUnfolding | undefined): void {
    const loopId = context.loopId() ?? "";
    let calls = this.loops.get(loopId);
    if (!calls) {
      calls = new Map();
      this.loops.set(loopId, calls);
      forgetOldest(this.loops, MAX_LOOPS);
    }
    calls.delete(input);
    calls.set(input, build && memoized(build));
    forgetOldest(calls, MAX_CALLS_PER_LOOP);
  }

  /** The unfolding of the latest call with the call's input in its loop (else of the loop's latest call). */
  find(call: UnfoldingCall): Unfolding | undefined {
    const calls = this.loops.get(call.context.loopId() ?? "");
    if (!calls || calls.size === 0) return undefined;
    const build = calls.has(call.input) ? calls.get(call.input) : [...calls.values()].at(-1);
    return build?.(call.definition);
  }
}
