import type { ResumableState } from "../loop/resumable-state.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "../loop/tool-injection-strategy.js";
import { matchingArtifacts } from "../tool/matching-artifacts.js";
import type { Tool } from "../tool/tool.js";

const present = (value: unknown): value is unknown => value !== undefined && value !== null;

/**
 * Collects, in call order, the artifacts that the tools of one nested loop
 * return (an array or Set element by element), skipping the tools `skip`
 * names (nested agentic tools, unless their artifacts are wanted). An
 * injection strategy that never changes the tool list, so chained and
 * discovered tools are seen too. A loop waiting for a person keeps what it
 * collected and gets it back when it resumes.
 */
export class ArtifactCapture implements ToolInjectionStrategy, ResumableState {
  readonly resumeKey = "artifact-capture";
  private readonly collected: unknown[] = [];

  constructor(private readonly skip: (tool: Tool) => boolean) {}

  /** The artifacts collected so far. */
  get artifacts(): readonly unknown[] {
    return this.collected;
  }

  captureState(): readonly unknown[] | undefined {
    return this.collected.length === 0 ? undefined : [...this.collected];
  }

  restoreState(state: unknown): undefined {
    if (Array.isArray(state)) this.collected.splice(0, this.collected.length, ...state);
    return undefined;
  }

  evaluate(context: ToolInjectionContext): ToolInjectionResult | undefined {
    const { tool, result } = context.lastToolCall;
    if (result.kind !== "artifact" || this.skip(tool)) return undefined;
    for (const artifact of matchingArtifacts(result, present)) this.collected.push(artifact);
    return undefined;
  }
}
