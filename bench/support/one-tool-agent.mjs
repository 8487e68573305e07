// What the concurrency benches (scale, latency) share: the agent's input and
// output types, an agent whose one action asks the LLM with one tool, the run
// options and the check that every process answered.
import { defineAgent, ProcessOptions } from "../../dist/src/index.js";

export class Task {
  constructor(index) {
    this.index = index;
  }
}
export class Report {
  constructor(text) {
    this.text = text;
  }
}

/** An agent whose one action (`action`) turns a Task into a Report: the LLM, offered `tool`, answers `<prompt> <index>`. */
export function oneToolAgent({ name, description, action, tool, prompt }) {
  return defineAgent({
    name,
    description,
    actions: [
      {
        name: action,
        input: Task,
        output: Report,
        achievesGoal: { description: "A report" },
        run: async (task, context) =>
          new Report(await context.ai().withTool(tool).generateText(`${prompt} ${task.index}`)),
      },
    ],
  });
}

/** Run options whose token budget no bench run reaches. */
export const RUN_OPTIONS = { processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 10_000_000 }) };

/** Throws unless every process completed with the answer `done`. */
export function expectAllDone(processes) {
  const failed = processes.filter(
    (agentProcess) => agentProcess.status !== "completed" || agentProcess.result?.text !== "done",
  );
  if (failed.length > 0)
    throw new Error(`${failed.length} processes did not complete: ${failed[0]?.statusReason}`);
}
