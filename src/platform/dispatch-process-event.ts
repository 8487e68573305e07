import type { ToolLoopEvent } from "../loop/tool-loop.js";
import { describeEvent } from "./describe-event.js";
import type { AgentProcessEvent, ProcessLifecycleEvent } from "./process-event.js";
import type { ProcessOptions } from "./process-options.js";

/**
 * Hands one event of process `processId` to its listeners (stamped with the
 * process id and the time) and, with `verbosity.debug`, to its output channel
 * as a debug line. A failing listener or channel never changes the run.
 */
export function dispatchProcessEvent(
  processId: string,
  options: ProcessOptions,
  event: ProcessLifecycleEvent | ToolLoopEvent,
): void {
  if (options.verbosity.debug) log(processId, options, describeEvent(event));
  if (options.listeners.length === 0) return;
  const stamped = { ...event, processId, timestamp: Date.now() } as AgentProcessEvent;
  for (const listener of options.listeners) {
    try {
      listener(stamped);
    } catch {
      // A listener's failure must not change the run.
    }
  }
}

/** Sends a debug line to the output channel; a failing channel never changes the run. */
function log(processId: string, options: ProcessOptions, message: string): void {
  try {
    const sent = options.outputChannel.send({ type: "logging", processId, level: "debug", message });
    if (sent) sent.catch(() => {});
  } catch {
    // Reporting must not end the run.
  }
}
