import { parseArgs } from "node:util";
import { STUDIO_PORT } from "../studio/studio-port.js";
import type { ApprovalMode } from "./answer-waits.js";
import type { CliCommand, RespondCommand, WorkerCommand } from "./cli-commands.js";
import { isModulePath } from "./module-path.js";
import { UsageError } from "./usage-error.js";

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
