import type { ExampleDefinition } from "../src/cli/example-definition.js";

/** The examples `embabel-ts run` knows by name, in the order `embabel-ts list` shows them. */
export const EXAMPLES: readonly ExampleDefinition[] = [];
