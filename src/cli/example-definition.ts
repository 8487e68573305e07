import type { ScriptedStepInit } from "../testing/scripted-step.js";

/**
 * An agent the CLI can run: `embabel-ts run <name> "<input>"`. An example
 * module exports one of these as `example`; the built-in examples are listed
 * in `examples/index.ts`, and any module path works too
 * (`embabel-ts run ./dist/my-agent.js "..."`).
 */
export interface ExampleDefinition {
  /** The name typed on the command line (kebab-case). */
  readonly name: string;
  /** One line for `embabel-ts list`. */
  readonly summary: string;
  /** The input used when the user gives none. */
  readonly sampleInput: string;
  /** Agents to deploy: `@agent` classes, instances, or built agents. The first one is run. */
  readonly agents: readonly unknown[];
  /** Turns the user's text into the object the agent starts from. */
  input(text: string): unknown;
  /** The recorded model replies `--scripted` replays, in order (one model serves every role). */
  script(): ScriptedStepInit[];
  /**
   * A config file shipped with the example (absolute path) whose `mcpServers`
   * and `toolGroups` the example's agents use; the user's config wins for a
   * server or group of the same name. @default none
   */
  readonly configFile?: string;
  /** Formats the agent's result for the terminal. @default pretty-printed JSON */
  formatResult?(result: unknown): string;
}
