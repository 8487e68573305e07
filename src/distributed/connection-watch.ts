import { Logger } from "../tool/logger.js";
import { redactUrl } from "./queue-protocol.js";

interface ErrorSource {
  on(event: "error", listener: (error: Error) => void): unknown;
}
interface ClientEvents {
  on(event: "close" | "ready", listener: () => void): unknown;
}

/** Stops a {@link watchConnection} (before closing the clients on purpose). */
export interface ConnectionWatch {
  stop(): void;
}

/**
 * Reports Redis going away and coming back as one warning line per change
 * (through the library's {@link Logger}), never a stack trace per retry.
 * `errors` are every client and BullMQ object on that Redis (each needs an
 * `error` listener, or Node prints the error); `client` is the connection
 * whose loss and return stand for Redis's.
 */
export function watchConnection(
  url: string,
  who: string,
  errors: readonly ErrorSource[],
  client: ClientEvents,
): ConnectionWatch {
  let down = false;
  let stopped = false;
  const lost = (detail: string) => {
    if (down || stopped) return;
    down = true;
    Logger.current().warn(
      `${who}: Redis at ${redactUrl(url)} is unreachable (${detail}); retrying until it is back`,
    );
  };
  for (const source of errors)
    source.on("error", (error) => (isConnectionError(error) ? lost(error.message) : undefined));
  client.on("close", () => lost("connection closed"));
  client.on("ready", () => {
    if (!down || stopped) return;
    down = false;
    Logger.current().warn(`${who}: Redis at ${redactUrl(url)} is reachable again`);
  });
  return {
    stop: () => {
      stopped = true;
    },
  };
}

/** Errors of a lost connection (as opposed to a failed command). */
function isConnectionError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"].includes(code ?? "") ||
    /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT/.test(error.message)
  );
}
