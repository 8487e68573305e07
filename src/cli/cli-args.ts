import { parseArgs } from "node:util";
import { STUDIO_PORT } from "../studio/studio-port.js";
import type { ApprovalMode } from "./answer-waits.js";
import { isModulePath } from "./module-path.js";
import { UsageError } from "./usage-error.js";

/** `embabel-ts run <example> "<input>" [--scripted] [--model <id>] [--verbose] [--config <file>]`. */
export interface RunCommand {
  /** Which command. */
  readonly command: "run";
  /** The example's name (see `embabel-ts list`), or the path of the user's module. */
  readonly example: string;
  /** With a module of several agents: the one to run (`--agent <name>`). @default the module's only agent */
  readonly agent?: string | undefined;
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
  /** Write the run's trace (JSON lines) to this file. @default undefined */
  readonly trace?: string | undefined;
  /** Print the trace events as JSON lines instead of the live tree. @default false */
  readonly json?: boolean;
  /** Do not keep the run in `.embabel-ts/runs`. @default false */
  readonly noKeepRuns?: boolean;
  /** Send the run to the workers on this Redis (`embabel-ts worker`) instead of running it here. */
  readonly redis?: string | undefined;
  /** With `redis`: cancel the run when no worker has taken it after this many seconds. @default undefined (wait) */
  readonly waitTimeoutSeconds?: number | undefined;
  /** With `redis`: how often to check that the run's job still exists in Redis. @default 30000 */
  readonly stalledIntervalMs?: number | undefined;
  /** The queue to send the run to (with `redis`). @default "embabel-agents" */
  readonly queue?: string | undefined;
  /** Agent Skills folders (`--skills <dir>`, repeatable) offered as the `skills` tool group. @default [] */
  readonly skills?: readonly string[];
  /** How a waiting run is answered: asked on a terminal, or every request approved / denied (`--approve-all`, `--deny-all`). @default "ask" */
  readonly approvals?: ApprovalMode;
}

/** `embabel-ts respond [<module>] <process-id> <request-id> approve|deny|submit [--reason r] [--input json] [--wait s] --redis <url>`. */
export interface RespondCommand {
  /** Which command. */
  readonly command: "respond";
  /** A module exporting the agents (like `worker`), to show the result with `--wait`. @default the built-in examples */
  readonly module?: string;
  /** Wait this many seconds for a worker to continue the run and print how it ended. @default 0 (return once the answer is stored) */
  readonly waitSeconds?: number;
  readonly processId: string;
  readonly requestId: string;
  /** Approve, deny, or submit a form's values (`--input`). */
  readonly answer: "approve" | "deny" | "submit";
  /** Why it is denied. */
  readonly reason: string | undefined;
  /** Edited arguments (approve) or the form's values (submit), as JSON text. */
  readonly input: string | undefined;
  /** The Redis the run waits on. */
  readonly redis: string;
  /** @default "embabel-agents" */
  readonly queue: string | undefined;
}

/** `embabel-ts waiting [<module>] --redis <url>`: the runs waiting for a person, with their requests. */
export interface WaitingCommand {
  /** Which command. */
  readonly command: "waiting";
  /** A module exporting the agents (like `worker`), to read their checkpoints whole. @default the built-in examples */
  readonly module?: string;
  readonly redis: string;
  /** @default "embabel-agents" */
  readonly queue: string | undefined;
}

/** `embabel-ts studio [<module>] [--port n] [--no-token] [trace files…]`. */
export interface StudioCommand {
  /** Which command. */
  readonly command: "studio";
  /** The user's module (a `.js`/`.mjs`/`.ts` path) whose agents the page starts. @default the built-in examples */
  readonly module?: string | undefined;
  /** The port on 127.0.0.1; 0 picks a free one. @default 4477 */
  readonly port: number;
  /** `none` with `--no-token`: the studio asks for no token (a machine only you use). @default "token" */
  readonly auth?: "token" | "none";
  /** Trace files to show besides the kept runs. */
  readonly files: readonly string[];
  /** An explicit config file (for runs started from the page). */
  readonly config: string | undefined;
}

/** `embabel-ts worker [<module>] --redis <url> [--concurrency n]`: run queued processes. */
export interface WorkerCommand {
  /** Which command. */
  readonly command: "worker";
  /** The user's module (its agents, see docs/cli.md); the built-in examples when omitted. */
  readonly module: string | undefined;
  /** The Redis URL. */
  readonly redis: string;
  /** The queue to serve. @default "embabel-agents" */
  readonly queue: string | undefined;
  /** Processes run at once. @default 10 */
  readonly concurrency: number;
  /** Every run replays its example's recorded script (no model needed). @default false */
  readonly scripted: boolean;
  /** A model id overriding config and `EMBABEL_MODEL`. */
  readonly model: string | undefined;
  /** An explicit config file. */
  readonly config: string | undefined;
  /** How long the worker's hold on a run lasts without renewal (a dead worker's runs move after it). @default 30000 */
  readonly lockDurationMs: number | undefined;
  /** How often the worker looks for runs of dead workers. @default 30000 */
  readonly stalledIntervalMs: number | undefined;
}

/** `embabel-ts mcp-serve [--http <port> [--host <address>] [--token <t>] [--allowed-origin <o>]…] [--scripted] [--model <id>] [--config <file>]`. */
export interface McpServeCommand {
  /** Which command. */
  readonly command: "mcp-serve";
  /** The user's module whose agents are served (under its package or file name) instead of the built-in examples. @default the built-in examples */
  readonly module?: string;
  /** Serve Streamable HTTP on 127.0.0.1 at this port (0 picks a free one) instead of stdio. */
  readonly httpPort: number | undefined;
  /** With `httpPort`: the address to listen on; anything but loopback needs a token. @default "127.0.0.1" */
  readonly host?: string | undefined;
  /** With `httpPort`: the bearer token every request must carry (else `EMBABEL_MCP_TOKEN`). @default none */
  readonly token?: string | undefined;
  /** With `httpPort`: browser origins accepted besides the server's own. @default [] */
  readonly allowedOrigins?: readonly string[];
  /** With `httpPort`: `Host` values accepted besides localhost, 127.0.0.1 and [::1]. @default [] */
  readonly allowedHosts?: readonly string[];
  /** With `httpPort`: serve without sessions (each POST on its own; no elicitation over HTTP). @default false (stateful) */
  readonly stateless?: boolean;
  /** With `httpPort`: the most sessions kept at once (`--max-sessions`). @default 100 */
  readonly maxSessions?: number;
  /** With `httpPort`: a session idle this long is closed (`--session-idle <s>`). @default 1800000 */
  readonly sessionIdleMs?: number;
  /** Run the agents on their recorded scripts instead of a real model. @default false */
  readonly scripted: boolean;
  /** A model id (`openai:gpt-4.1`) overriding config and `EMBABEL_MODEL`. */
  readonly model: string | undefined;
  /** An explicit config file instead of `embabel.config.{json,yaml,yml}` in the working directory. */
  readonly config: string | undefined;
  /** Send each agent run to the workers on this Redis: a run that waits is kept there, answerable through any server process. @default none (runs here) */
  readonly redis?: string | undefined;
  /** With `redis`: the queue. @default "embabel-agents" */
  readonly queue?: string | undefined;
}

/** What the command line asked for. */
export type CliCommand =
  | RunCommand
  | StudioCommand
  | WorkerCommand
  | McpServeCommand
  | RespondCommand
  | WaitingCommand
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
  redis: { type: "string" },
  queue: { type: "string" },
  concurrency: { type: "string" },
  "lock-duration": { type: "string" },
  "stalled-interval": { type: "string" },
  "wait-timeout": { type: "string" },
  wait: { type: "string" },
  http: { type: "string" },
  host: { type: "string" },
  token: { type: "string" },
  "allowed-origin": { type: "string", multiple: true },
  "allowed-host": { type: "string", multiple: true },
  "max-sessions": { type: "string" },
  "session-idle": { type: "string" },
  stateless: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  trace: { type: "string" },
  json: { type: "boolean" },
  "no-keep-runs": { type: "boolean" },
  "no-token": { type: "boolean" },
  port: { type: "string", short: "p" },
  skills: { type: "string", multiple: true },
  "approve-all": { type: "boolean" },
  "deny-all": { type: "boolean" },
  reason: { type: "string" },
  input: { type: "string" },
  agent: { type: "string" },
} as const;

/** The commands, as the unknown-command message lists them. */
const COMMANDS = ["run", "list", "studio", "worker", "mcp-serve", "respond", "waiting", "help"] as const;

/** The options each command reads: any other is a mistake on the command line, never silently ignored. */
const OPTIONS_OF: Readonly<Record<(typeof COMMANDS)[number], readonly (keyof typeof OPTIONS)[]>> = {
  run: [
    "scripted",
    "model",
    "verbose",
    "config",
    "trace",
    "json",
    "no-keep-runs",
    "redis",
    "queue",
    "wait-timeout",
    "stalled-interval",
    "skills",
    "approve-all",
    "deny-all",
    "agent",
  ],
  list: [],
  studio: ["port", "config", "no-token"],
  worker: [
    "redis",
    "queue",
    "concurrency",
    "lock-duration",
    "stalled-interval",
    "scripted",
    "model",
    "config",
  ],
  "mcp-serve": [
    "http",
    "host",
    "token",
    "allowed-origin",
    "allowed-host",
    "stateless",
    "max-sessions",
    "session-idle",
    "scripted",
    "model",
    "config",
    "redis",
    "queue",
  ],
  respond: ["reason", "input", "redis", "queue", "wait"],
  waiting: ["redis", "queue"],
  help: [],
};

/** Throws a {@link UsageError} for an option `command` does not take, naming the commands that do. */
function checkOptionsOf(command: string, values: Readonly<Record<string, unknown>>): void {
  const known = OPTIONS_OF[command as keyof typeof OPTIONS_OF];
  if (!known) return;
  for (const option of Object.keys(values)) {
    if (values[option] === undefined || option === "help" || option === "version") continue;
    if ((known as readonly string[]).includes(option)) continue;
    const users = COMMANDS.filter((each) => (OPTIONS_OF[each] as readonly string[]).includes(option));
    throw new UsageError(
      `'${command}' takes no --${option}${users.length > 0 ? ` (it is an option of ${users.map((each) => `'${each}'`).join(", ")})` : ""}.`,
    );
  }
}

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
  if (command !== undefined) checkOptionsOf(command, values);
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
        ...(values.agent === undefined ? {} : { agent: values.agent }),
        input,
        scripted: values.scripted ?? false,
        model: values.model,
        verbose: values.verbose ?? false,
        config: values.config,
        ...(values.trace === undefined ? {} : { trace: values.trace }),
        ...(values.json ? { json: true } : {}),
        ...(values["no-keep-runs"] ? { noKeepRuns: true } : {}),
        ...(values.redis === undefined ? {} : { redis: values.redis }),
        ...queueWaitOptions(values["wait-timeout"], values["stalled-interval"], values.redis),
        ...(values.queue === undefined ? {} : { queue: values.queue }),
        ...(values.skills === undefined ? {} : { skills: values.skills }),
        ...approvalsOf(values),
      };
    }
    case "respond":
      return respondCommand(rest, values);
    case "waiting": {
      const [module, ...extra] = rest;
      if (extra.length > 0 || (module !== undefined && !isModulePath(module)))
        throw new UsageError(`'waiting' takes at most one module path (got ${quoteAll(rest)}).`);
      return {
        command: "waiting",
        redis: requireRedis(values.redis, "waiting"),
        queue: values.queue,
        ...(module === undefined ? {} : { module }),
      };
    }
    case "studio": {
      // A script is the module whose agents the page starts; anything else is a trace file.
      const modules = rest.filter((file) => /\.(c|m)?(js|ts)$/.test(file));
      if (modules.length > 1) throw new UsageError(`'studio' takes one module (got ${quoteAll(modules)}).`);
      return {
        command: "studio",
        ...(modules[0] === undefined ? {} : { module: modules[0] }),
        port: parsePort(values.port),
        files: rest.filter((file) => !modules.includes(file)),
        config: values.config,
        ...(values["no-token"] ? { auth: "none" as const } : {}),
      };
    }
    case "worker":
      return workerCommand(rest, values);
    case "mcp-serve": {
      if (rest.length > 1) throw new UsageError(`'mcp-serve' takes one module (got ${quoteAll(rest)}).`);
      const httpOnly = (
        [
          "host",
          "token",
          "allowed-origin",
          "allowed-host",
          "stateless",
          "max-sessions",
          "session-idle",
        ] as const
      ).find((option) => values[option] !== undefined);
      if (values.http === undefined && httpOnly !== undefined) {
        throw new UsageError(`--${httpOnly} is for serving over HTTP: add --http <port>.`);
      }
      if (values.token !== undefined && values.token.trim().length === 0) {
        throw new UsageError("--token is empty: give the token clients must send, or leave --token out.");
      }
      return {
        command: "mcp-serve",
        ...(rest[0] === undefined ? {} : { module: rest[0] }),
        httpPort: values.http === undefined ? undefined : portOf(values.http),
        ...(values.host === undefined ? {} : { host: values.host }),
        ...(values.token === undefined ? {} : { token: values.token }),
        ...(values["allowed-origin"] ? { allowedOrigins: values["allowed-origin"] } : {}),
        ...(values["allowed-host"] ? { allowedHosts: values["allowed-host"] } : {}),
        ...(values.stateless ? { stateless: true } : {}),
        ...sessionLimitsOf(values["max-sessions"], values["session-idle"]),
        scripted: values.scripted ?? false,
        model: values.model,
        config: values.config,
        ...(values.redis === undefined ? {} : { redis: requireRedis(values.redis, "mcp-serve") }),
        ...(values.queue === undefined ? {} : { queue: values.queue }),
      };
    }
    default:
      throw new UsageError(`Unknown command '${command}'. Commands: ${COMMANDS.join(", ")}.`);
  }
}

function approvalsOf(values: { "approve-all"?: boolean; "deny-all"?: boolean }): {
  approvals?: ApprovalMode;
} {
  if (values["approve-all"] && values["deny-all"])
    throw new UsageError("Choose one of --approve-all and --deny-all.");
  if (values["approve-all"]) return { approvals: "approve-all" };
  if (values["deny-all"]) return { approvals: "deny-all" };
  return {};
}

function requireRedis(redis: unknown, command: string): string {
  if (typeof redis !== "string" || redis.length === 0) {
    throw new UsageError(
      `'${command}' needs the Redis the runs wait on: embabel-ts ${command} ... --redis redis://127.0.0.1:6379 (a run without --redis ends with its program: answer it there).`,
    );
  }
  return redis;
}

function respondCommand(
  rest: readonly string[],
  values: { [key in keyof typeof OPTIONS]?: string | boolean | string[] | undefined },
): RespondCommand {
  // `respond [<module>] <process-id> <request-id> <answer>`: a module path first names the run's agents.
  const module = rest.length === 4 && isModulePath(rest[0] as string) ? rest[0] : undefined;
  const [processId, requestId, answer, ...extra] = module === undefined ? rest : rest.slice(1);
  const usage =
    "embabel-ts respond [<module>] <process-id> <request-id> approve|deny|submit [--reason <r>] [--input '<json>'] [--wait <seconds>] --redis <url>";
  if (processId === undefined || requestId === undefined || answer === undefined || extra.length > 0)
    throw new UsageError(`Usage: ${usage}`);
  if (answer !== "approve" && answer !== "deny" && answer !== "submit")
    throw new UsageError(`The answer must be approve, deny or submit (got '${answer}'). Usage: ${usage}`);
  const input = values.input as string | undefined;
  if (input !== undefined) {
    try {
      JSON.parse(input);
    } catch {
      throw new UsageError(`--input must be JSON (got '${input}').`);
    }
  }
  if (answer === "submit" && input === undefined)
    throw new UsageError("'submit' needs the form's values: --input '<json>'.");
  if (answer === "deny" && input !== undefined)
    throw new UsageError("--input goes with approve or submit, not deny.");
  const wait = values.wait as string | undefined;
  const waitSeconds = wait === undefined ? undefined : Number(wait);
  if (waitSeconds !== undefined && (wait?.trim() === "" || !Number.isFinite(waitSeconds) || waitSeconds < 0))
    throw new UsageError(`--wait needs a number of seconds, 0 or more (got '${wait}').`);
  return {
    command: "respond",
    ...(module === undefined ? {} : { module }),
    ...(waitSeconds === undefined ? {} : { waitSeconds }),
    processId,
    requestId,
    answer,
    reason: values.reason as string | undefined,
    input,
    redis: requireRedis(values.redis, "respond"),
    queue: values.queue as string | undefined,
    ...(module === undefined ? {} : { module }),
  };
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return STUDIO_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`--port needs a port number from 0 to 65535 (got '${value}').`);
  }
  return port;
}

function workerCommand(
  rest: readonly string[],
  values: { [key in keyof typeof OPTIONS]?: string | boolean | string[] | undefined },
): WorkerCommand {
  const [module, ...extra] = rest;
  if (extra.length > 0) throw new UsageError(`'worker' takes one module (got ${quoteAll(rest)}).`);
  const redis = values.redis;
  if (typeof redis !== "string" || redis.length === 0) {
    throw new UsageError(
      "'worker' needs the Redis to take runs from: embabel-ts worker --redis redis://127.0.0.1:6379",
    );
  }
  return {
    command: "worker",
    module,
    redis,
    queue: values.queue as string | undefined,
    concurrency: positiveInteger(values.concurrency, "--concurrency") ?? 10,
    scripted: values.scripted === true,
    model: values.model as string | undefined,
    config: values.config as string | undefined,
    lockDurationMs: positiveInteger(values["lock-duration"], "--lock-duration"),
    stalledIntervalMs: positiveInteger(values["stalled-interval"], "--stalled-interval"),
  };
}

function positiveInteger(value: string | boolean | string[] | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value !== "string" || !Number.isInteger(number) || number < 1) {
    throw new UsageError(`Option '${option}' needs a whole number of 1 or more (got '${String(value)}').`);
  }
  return number;
}

/** `--max-sessions` and `--session-idle` (seconds) of `mcp-serve`. */
function sessionLimitsOf(
  max: string | undefined,
  idle: string | undefined,
): { maxSessions?: number; sessionIdleMs?: number } {
  const maxSessions = positiveInteger(max, "--max-sessions");
  const idleSeconds = positiveInteger(idle, "--session-idle");
  return {
    ...(maxSessions === undefined ? {} : { maxSessions }),
    ...(idleSeconds === undefined ? {} : { sessionIdleMs: idleSeconds * 1000 }),
  };
}

/** `--wait-timeout` and `--stalled-interval` of `run`, which need `--redis`. */
function queueWaitOptions(
  timeout: string | undefined,
  stalled: string | undefined,
  redis: string | undefined,
): { waitTimeoutSeconds?: number; stalledIntervalMs?: number } {
  const stalledMs = positiveInteger(stalled, "--stalled-interval");
  if ((timeout !== undefined || stalledMs !== undefined) && redis === undefined) {
    throw new UsageError(
      `${timeout !== undefined ? "--wait-timeout" : "--stalled-interval"} is for runs sent to workers: add --redis <url>.`,
    );
  }
  const seconds = Number(timeout);
  if (timeout !== undefined && !(seconds > 0 && Number.isFinite(seconds))) {
    throw new UsageError(`Option '--wait-timeout' needs a number of seconds above 0 (got '${timeout}').`);
  }
  return {
    ...(timeout === undefined ? {} : { waitTimeoutSeconds: seconds }),
    ...(stalledMs === undefined ? {} : { stalledIntervalMs: stalledMs }),
  };
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
