// Scale-out: agent processes on BullMQ workers over Redis (`embabel-ts/distributed`).
// `bullmq` and `ioredis` are optional peer dependencies, imported on first use.

export { CheckpointError } from "../errors/checkpoint-error.js";
export { ProcessLostError } from "../errors/process-lost-error.js";
export { SerializationError } from "../errors/serialization-error.js";
export { AgentWorker, type AgentWorkerOptions } from "./agent-worker.js";
export { BullMqRunner, type BullMqRunnerOptions } from "./bullmq-runner.js";
export { DEFAULT_QUEUE } from "./queue-protocol.js";
export { RedisMcpNonceStore, type RedisMcpNonceStoreOptions } from "./redis-mcp-nonce-store.js";
export type { RegisteredType, TypeCodec } from "./type-registry.js";
