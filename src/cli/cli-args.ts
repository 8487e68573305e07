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

/** `embabel-ts mcp-serve [--http <port>] [--scripted] [--model <id>] [--config <file>]`. */
export interface McpServeCommand {
  /** Which command. */
  readonly command: "mcp-serve";
  /** Serve Streamable HTTP on 127.0.0.1 at this port (0 picks a free one) instead of stdio. */
  readonly httpPort: number | undefined;
  /** Run the agents on their recorded scripts instead of a real model. @default false */
  readonly scripted: boolean;
  /** A model id (`openai:gpt-4.1`) overriding config and `EMBABEL_MODEL`. */
  readonly model: string | undefined;
  /** An explicit config file instead of `embabel.config.{json,yaml,yml}` in the working directory. */
  readonly config: string | undefined;
}

/** What the command line asked for. */
export type CliCommand =
  | RunCommand
  | McpServeCommand
  | { readonly command: "list" }
  | { readonly command: "help" }
  | { readonly command: "version" };

const OPTIONS = {
  scripted: { type: "boolean", short: "s" },
  model: { type: "string", short: "m" },
  verbose: { type: "boolean", short: "v" },
  config: { type: "string", short: "c" },
  http: { type: "string" },
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
    case "mcp-serve": {
      if (rest.length > 0) throw new UsageError(`'mcp-serve' takes no arguments (got ${quoteAll(rest)}).`);
      return {
        command: "mcp-serve",
        httpPort: values.http === undefined ? undefined : portOf(values.http),
        scripted: values.scripted ?? false,
        model: values.model,
        config: values.config,
      };
    }
    default:
      throw new UsageError(`Unknown command '${command}'. Commands: run, list, mcp-serve, help.`);
  }
}

function portOf(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) {
    throw new UsageError(`--http needs a port number from 0 to 65535 (0 picks a free one); got '${text}'.`);
  }
  return port;
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
