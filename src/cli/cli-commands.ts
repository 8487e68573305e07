import type { ApprovalMode } from "./answer-waits.js";

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
