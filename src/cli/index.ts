export type { ExampleDefinition } from "./example-definition.js";
