export type { ExampleDefinition } from "./example-definition.js";
export {
  ProcessReporter,
  type ProcessReporterOptions,
  type RunTotals,
  renderTrace,
  type TraceRendererOptions,
  traceRenderer,
} from "./process-reporter.js";
