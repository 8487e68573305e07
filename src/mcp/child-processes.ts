// The stdio servers' child processes still running, so that none outlives this
// Node process: on exit each one's process group (the server, and an `npx` or
// `sh -c` wrapper's real server under it) is killed (an exit handler can only
// act synchronously, so a signal is all it can send). SIGINT, SIGTERM and SIGHUP
// end Node without an "exit" event: when the application does not handle them
// itself, they kill the children too, then end the process as they would have.

import { signalGroup } from "./signal-group.js";

/** Each owner's child pid (its process group id too), read when needed (a child being started has none yet). */
const children = new Map<object, () => number | undefined>();
let hooked = false;

function killAll(): void {
  for (const pidOf of children.values()) {
    signalGroup({ pid: pidOf() }, "SIGKILL");
  }
  children.clear();
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

function onSignal(signal: NodeJS.Signals): void {
  // The application handles the signal (and exits or not, as it likes): leave it to it.
  if (process.listenerCount(signal) > 1) return;
  killAll();
  // Our listener replaced Node's default behaviour: restore it, and let the signal end the process.
  for (const each of SIGNALS) process.removeListener(each, onSignal);
  process.kill(process.pid, signal);
}

/** Records `owner`'s child (its pid as `pidOf` reads it, from the moment it is spawned) until {@link forgetChild}. */
export function rememberChild(owner: object, pidOf: () => number | undefined): void {
  children.set(owner, pidOf);
  if (!hooked) {
    hooked = true;
    process.once("exit", killAll);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
}

/** Forgets `owner`'s child (it was closed or it exited). */
export function forgetChild(owner: object): void {
  children.delete(owner);
}
