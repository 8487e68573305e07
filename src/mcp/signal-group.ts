/**
 * Sends `signal` to `child`'s process group (to `child` alone where there are
 * no groups); true when something received it.
 */
export function signalGroup(
  child: { readonly pid?: number | undefined },
  signal: NodeJS.Signals | 0,
): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
    return true;
  } catch {
    return false; // no process is left in the group
  }
}
