import { parseArgs } from "node:util";
import { UsageError } from "./usage-error.js";

/** `embabel-ts run <example> "<input>" [--scripted] [--model <id>] [--verbose] [--config <file>]`. */
export interface RunCommand {
  /** Which command. */
  readonly command: "run";
  /** The example's name (see `embabel-ts list`). */
  readonly example: string;
  /** The user's request; the example's sample input when omitted. */
  readonly input: string | undefined;
  /** Replay the example's recorded script instead of calling a real model. @default false */
  readonly scripted: boolean;
  /** A model id (`openai:gpt-4.1`) overriding config and `EMBABEL_MODEL`. */
  readonly model: string | undefined;
  /** Show prompts, LLM responses and full tool results. @default false */
  readonly verbose: boolean;
  /** An explicit config file instead of `embabel.config.{json,yaml,yml}` in the working directory. */
  readonly config: string | undefined;
}

/** What the command line asked for. */
export type CliCommand =
  | RunCommand
  | { readonly command: "list" }
  | {
      readonly command: "help";
      /** True when no command was given: the help is printed as a usage mistake (exit status 2). */
      readonly missingCommand?: true;
    }
  | { readonly command: "version" };

const OPTIONS = {
  scripted: { type: "boolean", short: "s" },
  model: { type: "string", short: "m" },
  verbose: { type: "boolean", short: "v" },
  config: { type: "string", short: "c" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

/** Parses `argv` (without `node` and the script); throws {@link UsageError} on anything unrecognised. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(cleanParseMessage((error as Error).message));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };
  const [command, ...rest] = positionals;
  switch (command) {
    case undefined:
      return { command: "help", missingCommand: true };
    case "help":
      return { command: "help" };
    case "list":
      if (rest.length > 0) throw new UsageError(`'list' takes no arguments (got ${quoteAll(rest)}).`);
      return { command: "list" };
    case "run": {
      const [example, input, ...extra] = rest;
      if (example === undefined) {
        throw new UsageError("'run' needs the name of an example: embabel-ts run <example> \"<input>\"");
      }
      if (extra.length > 0) {
        throw new UsageError(
          `'run' takes one input; put it in quotes: embabel-ts run ${example} "${[input, ...extra].join(" ")}"`,
        );
      }
      if (input !== undefined && input.trim().length === 0) {
        throw new UsageError(
          `The input is empty. Put the request in quotes (embabel-ts run ${example} "<input>"), or leave it out to use the example's sample input.`,
        );
      }
      return {
        command: "run",
        example,
        input,
        scripted: values.scripted ?? false,
        model: values.model,
        verbose: values.verbose ?? false,
        config: values.config,
      };
    }
    default:
      throw new UsageError(`Unknown command '${command}'. Commands: run, list, help.`);
  }
}

function quoteAll(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(", ");
}

/** Node's messages mention `parseArgs` internals; keep the part a user can act on. */
function cleanParseMessage(message: string): string {
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `Unknown option '${unknown[1]}'. Run 'embabel-ts --help' for the options.`;
  const missing = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(message);
  if (missing) return `Option '${missing[1]}' needs a value.`;
  return message.replace(/\. To specify a positional argument.*$/s, ".");
}
