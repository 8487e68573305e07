import type { GuardedFetch } from "./oauth-fetch-guard.js";

/** What a liveness ping's fetch throws instead of handing its 401/403 to the transport (which would start an authorization). */
export class LivenessPingRefused extends Error {
  constructor(readonly status: number) {
    super(`the liveness ping was answered HTTP ${status}; the server is alive`);
    this.name = "LivenessPingRefused";
  }
}

/**
 * `fetch` for an HTTP MCP transport whose liveness checks (`ping`, or
 * `server/discover` at 2026-07-28: see `isPing`) never start an authorization: their 401 or 403 is thrown
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

/**
 * Whether a request is a liveness check: a `ping` (2025-11-25), or at
 * 2026-07-28 (no ping there) a `server/discover` with a numeric id. The SDK's
 * connect probe is a `server/discover` too, but its ids are strings: its 401
 * must start the authorization.
 */
function isPing(init: RequestInit | undefined): boolean {
  if (init?.method !== "POST" || typeof init.body !== "string") return false;
  if (!init.body.includes('"ping"') && !init.body.includes('"server/discover"')) return false;
  try {
    const { method, id } = JSON.parse(init.body) as { method?: unknown; id?: unknown };
    return method === "ping" || (method === "server/discover" && typeof id === "number");
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
