import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** The host names a loopback server answers to (DNS rebinding cannot make a page use them). */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** Whether `host` (a listening address or a host name) is this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Options of {@link mcpHttpGuard}. */
export interface McpHttpGuardOptions {
  /** The port the server listens on (the port of the origins accepted). */
  readonly port: number;
  /** The address listened on; a concrete non-loopback address is accepted as a `Host` too. */
  readonly listenHost: string;
  /** Further `Host` values accepted (`name` for any port, `name:port` for that one). @default [] */
  readonly allowedHosts?: readonly string[];
  /** Further `Origin` values accepted, exactly (`https://app.example.com`). @default [] */
  readonly allowedOrigins?: readonly string[];
  /** A bearer token every request must carry. @default none */
  readonly token?: string;
}

/** Why a request is refused: the HTTP status, and a message for the client. */
export interface McpHttpRefusal {
  readonly status: 401 | 403;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

function splitHost(host: string): { name: string; port: string | undefined } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.trim().toLowerCase());
  return { name: match?.[1] ?? host, port: match?.[2] || undefined };
}

/** The token of an `Authorization: Bearer <token>` header, if it is one (no regex: `\s+(.+)$` backtracks). */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.length <= 7 || header.slice(0, 6).toLowerCase() !== "bearer")
    return undefined;
  if (!/\s/.test(header[6] as string)) return undefined;
  const token = header.slice(7).trim();
  return token.length > 0 ? token : undefined;
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * The checks a Streamable HTTP endpoint makes before reading a request
 * (the MCP spec's DNS-rebinding rule, and an optional bearer token):
 * `Host` must name this server (a loopback name, with any port, unless
 * allowed otherwise), a browser's `Origin` must be this server's own (a
 * loopback name with its port) or an allowed one (no `Origin`, as from non-browser clients, passes), and the
 * token, when set, is compared in constant time. Returns `undefined` to let
 * the request through.
 */
export function mcpHttpGuard(
  options: McpHttpGuardOptions,
): (headers: IncomingHttpHeaders) => McpHttpRefusal | undefined {
  const port = String(options.port);
  const names = new Set(LOOPBACK_NAMES);
  const listen = options.listenHost.toLowerCase();
  if (!isLoopbackHost(listen) && listen !== "0.0.0.0" && listen !== "::" && listen !== "[::]") {
    names.add(listen.includes(":") && !listen.startsWith("[") ? `[${listen}]` : listen);
  }
  const anyPort = new Set<string>();
  const exact = new Set<string>();
  for (const allowed of options.allowedHosts ?? []) {
    const { name, port: allowedPort } = splitHost(allowed);
    if (allowedPort === undefined) anyPort.add(name);
    else exact.add(`${name}:${allowedPort}`);
  }
  const origins = new Set<string>();
  for (const name of names) origins.add(`http://${name}:${port}`);
  for (const origin of options.allowedOrigins ?? []) origins.add(origin.toLowerCase().replace(/\/$/, ""));
  const tokenHash = options.token === undefined ? undefined : sha256(options.token);

  // A loopback name passes with any port: a rebinding page cannot send one, and
  // SSH tunnels and container port mappings change the port the client sees.
  const hostAllowed = (host: string): boolean => {
    const { name, port: hostPort } = splitHost(host);
    return names.has(name) || anyPort.has(name) || exact.has(`${name}:${hostPort ?? ""}`);
  };

  return (headers) => {
    const host = headers.host ?? "";
    if (!hostAllowed(host)) {
      return { status: 403, message: `This MCP server does not answer to Host '${host}'.` };
    }
    const origin = headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      return { status: 403, message: `Requests from origin '${origin}' are not accepted.` };
    }
    if (tokenHash !== undefined) {
      const presented = bearerToken(headers.authorization);
      if (presented === undefined || !timingSafeEqual(sha256(presented), tokenHash)) {
        return {
          status: 401,
          message: "A bearer token is required (Authorization: Bearer <token>).",
          headers: { "www-authenticate": 'Bearer realm="mcp"' },
        };
      }
    }
    return undefined;
  };
}
