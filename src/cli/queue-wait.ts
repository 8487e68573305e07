import type { BullMqRunner } from "../distributed/bullmq-runner.js";
import { redactUrl } from "../distributed/queue-protocol.js";
import type { ProcessHandle } from "../platform/process-runner.js";
import type { Terminal } from "./terminal.js";

/** What {@link watchQueueWait} needs to know about the run. */
export interface QueueWaitOptions {
  readonly runner: BullMqRunner;
  readonly handle: ProcessHandle;
  readonly redis: string;
  /** Cancel the run when no worker took it after this many seconds. */
  readonly waitTimeoutSeconds: number | undefined;
  readonly terminal: Terminal;
  /** Ctrl-C / SIGTERM. */
  readonly signal: AbortSignal | undefined;
  /** How often the job is looked at. @default 500 */
  readonly pollMs?: number;
}

/** Job states of a run no worker has taken yet. */
const QUEUED = new Set(["waiting", "prioritized", "delayed"]);

/**
 * While a run sent with `run --redis` waits in the queue, says so on stderr
 * (within about a second: `waiting for a worker on queue 'q' (no worker
 * seen)`), once per change; cancels it after `--wait-timeout`; and says that
 * a first Ctrl-C cancels it. Returns a function that stops watching.
 */
export function watchQueueWait(options: QueueWaitOptions): () => void {
  const { runner, handle, terminal } = options;
  const { style } = terminal;
  const queue = runner.queueName;
  const startedAt = Date.now();
  let said = "";
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const say = (line: string) => {
    if (line === said) return;
    said = line;
    terminal.err(style.dim(line));
  };
  const onAbort = () => say(`cancelling the run on queue '${queue}'… (Ctrl-C again exits at once)`);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const look = async () => {
    const state = await runner.jobState(handle.id).catch(() => undefined);
    if (stopped || state === undefined) return;
    if (!QUEUED.has(state)) {
      if (said.startsWith("waiting")) say("a worker took the run");
      return;
    }
    const waitedSeconds = (Date.now() - startedAt) / 1000;
    if (waitedSeconds >= 1) {
      const workers = await runner.workerCount();
      const seen =
        workers === undefined
          ? "workers unknown"
          : workers === 0
            ? "no worker seen"
            : `${workers} worker(s) seen, all busy`;
      say(`waiting for a worker on queue '${queue}' (${seen})`);
    }
    if (options.waitTimeoutSeconds !== undefined && waitedSeconds >= options.waitTimeoutSeconds) {
      stopped = true;
      const flag = queue === "embabel-agents" ? "" : ` --queue ${queue}`;
      await handle.kill(
        `No worker took the run within ${options.waitTimeoutSeconds} s on queue '${queue}'. Start one: embabel-ts worker --redis ${redactUrl(options.redis)}${flag}`,
      );
    }
  };
  const loop = async () => {
    await look();
    if (!stopped) {
      timer = setTimeout(() => void loop(), options.pollMs ?? 500);
      timer.unref();
    }
  };
  timer = setTimeout(() => void loop(), Math.min(options.pollMs ?? 500, 1_000));
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  };
}
