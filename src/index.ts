// The public API of embabel-ts. Each layer's index lists its public names; adding one here is an API decision.
export * as _errors from "./errors/index.js";
