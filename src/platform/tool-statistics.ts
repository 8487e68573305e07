/** Calls of one tool in the process. */
export interface ToolStats {
  /** How many times the tool was called. */
  readonly calls: number;
  /** Calls whose result was an error. */
  readonly failures: number;
  /** The sum of the calls' durations. */
  readonly totalDurationMs: number;
}

/** A tool's stats as the process keeps them (never handed out: see {@link ToolStatistics.entries}). */
type MutableToolStats = { -readonly [K in keyof ToolStats]: ToolStats[K] };

/** The calls of each tool in one process: counted on every finished call, copied when handed out. */
export class ToolStatistics {
  /** Created on the first tool call; the stats are updated in place. */
  private tools: Map<string, MutableToolStats> | undefined;

  /** Statistics starting from `entries` (a checkpoint's), or empty. */
  constructor(entries?: readonly (readonly [string, ToolStats])[]) {
    if (entries) this.tools = new Map(entries.map(([name, stats]) => [name, { ...stats }]));
  }

  /** Counts one finished call of `toolName`. */
  record(toolName: string, failed: boolean, durationMs: number): void {
    this.tools ??= new Map();
    let stats = this.tools.get(toolName);
    if (!stats) {
      stats = { calls: 0, failures: 0, totalDurationMs: 0 };
      this.tools.set(toolName, stats);
    }
    stats.calls++;
    if (failed) stats.failures++;
    stats.totalDurationMs += durationMs;
  }

  /** The stats per tool name, copies, so what a caller holds never changes. */
  entries(): [string, ToolStats][] {
    return this.tools ? [...this.tools].map(([name, stats]) => [name, { ...stats }]) : [];
  }
}
