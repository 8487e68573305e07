// Traces: recording agent processes as versioned JSON lines, reading them back, and the tree the studio shows.

export { TraceFormatError } from "../errors/trace-format-error.js";
export { jsonSafe } from "../tool/json-safe.js";
export { REDACTED, redactSecrets, redactSecretsDeep } from "../tool/redact-secrets.js";
export { parseTrace, readTrace } from "./read-trace.js";
export { TraceFileReader, type TraceFileReaderOptions } from "./trace-file-reader.js";
export {
  TRACE_FORMAT,
  TRACE_VERSION,
  type Trace,
  type TraceHeader,
  type TraceRecord,
  type TraceToolDefinition,
  UNREADABLE_RECORD,
} from "./trace-format.js";
export { TraceRecorder, type TraceRecorderOptions } from "./trace-recorder.js";
export { TraceSink } from "./trace-sink.js";
export {
  type ActionNode,
  type EventNode,
  type LlmCallDetail,
  type LlmNode,
  type LlmRetry,
  type PlanNode,
  type ProcessNode,
  type RunView,
  type ToolNode,
  type TraceNode,
  TraceTree,
  type TraceUsage,
} from "./trace-tree.js";
