// The stdio servers' child processes still running, so that none outlives this
// Node process: on exit each is killed (an exit handler can only act
// synchronously, so a signal is all it can send).

const children = new Map<object, number>();
let hooked = false;

function killAll(): void {
  for (const pid of children.values()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  children.clear();
}

/** Records `owner`'s child `pid` until {@link forgetChild}. */
export function rememberChild(owner: object, pid: number): void {
  children.set(owner, pid);
  if (!hooked) {
    hooked = true;
    process.once("exit", killAll);
  }
}

/** Forgets `owner`'s child (it was closed or it exited). */
export function forgetChild(owner: object): void {
  children.delete(owner);
}
