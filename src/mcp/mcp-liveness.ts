import type { GuardedFetch } from "./oauth-fetch-guard.js";

/** What a liveness ping's fetch throws instead of handing its 401/403 to the transport (which would start an authorization). */
export class LivenessPingRefused extends Error {
  constructor(readonly status: number) {
    super(`the liveness ping was answered HTTP ${status}; the server is alive`);
    this.name = "LivenessPingRefused";
  }
}

/**
 * `fetch` for an HTTP MCP transport whose `ping` requests (only the liveness
 * check sends them) never start an authorization: their 401 or 403 is thrown
 * as a {@link LivenessPingRefused} before the transport can act on it.
 */
export function livenessFetch(base: GuardedFetch | undefined): GuardedFetch {
  const send: GuardedFetch = base ?? ((url, init) => fetch(url, init));
  return async (url, init) => {
    const response = await send(url, init);
    if ((response.status === 401 || response.status === 403) && isPing(init)) {
      await response.body?.cancel().catch(() => undefined);
      throw new LivenessPingRefused(response.status);
    }
    return response;
  };
}

function isPing(init: RequestInit | undefined): boolean {
  if (init?.method !== "POST" || typeof init.body !== "string") return false;
  if (!init.body.includes('"ping"')) return false;
  try {
    return (JSON.parse(init.body) as { method?: unknown }).method === "ping";
  } catch {
    return false;
  }
}

/**
 * Whether an error the SDK reports to `onerror` may mean the server died, so
 * a liveness ping should decide: not an authorization in progress
 * (`UnauthorizedError`), not an HTTP answer (the optional GET stream's
 * 404/405, a 401/403: the server answered, so it is alive), not a protocol
 * error and not a refused liveness ping.
 */
export function mayMeanDead(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  if (error.name === "LivenessPingRefused" || error.constructor.name === "UnauthorizedError") return false;
  if (typeof (error as { code?: unknown }).code === "number") return false; // an HTTP status or a JSON-RPC error
  return !(error instanceof SyntaxError);
}
