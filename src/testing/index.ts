// Test doubles for users of embabel-ts (exported as "embabel-ts/testing").
export { ScriptExhaustedError } from "../errors/script-exhausted-error.js";
export { HashEmbeddingModel, type HashEmbeddingModelOptions } from "./hash-embedding-model.js";
export { ScriptedModel, type ScriptedModelOptions } from "./scripted-model.js";
export type {
  ScriptedRequest,
  ScriptedStep,
  ScriptedStepInit,
  ScriptedStepOptions,
  ScriptedToolCall,
  ScriptedUsage,
} from "./scripted-step.js";
