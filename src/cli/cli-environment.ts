import type { AskLine } from "./answer-waits.js";
import type { Terminal } from "./terminal.js";

/** What the CLI runs against: a terminal, the environment and the working directory. */
export interface CliEnvironmentOptions {
  /** Where output and errors are written. */
  readonly terminal: Terminal;
  /** The environment variables read (keys, `EMBABEL_MODEL`, `EMBABEL_DEBUG`, colour). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where the config file and example module paths are looked up. */
  readonly cwd: string;
  /** Cancels a run (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** Reads a line typed on the terminal (set only when standard input is a TTY): `run` asks a person through it. @default undefined */
  readonly ask?: AskLine;
}
