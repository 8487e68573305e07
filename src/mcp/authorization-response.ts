import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { McpServerError } from "../errors/mcp-server-error.js";

/**
 * What an OAuth redirect URL received: the callback URL itself, its query
 * (`URLSearchParams`), or only the authorization `code` (then the `iss`
 * parameter cannot be checked).
 */
export type McpAuthorizationResponse = string | URL | URLSearchParams;

/** A pathless URL's lone "/" (which `new URL` adds) dropped: `https://as.example/` and `https://as.example` name one issuer. */
function withoutRootSlash(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/$/i.test(url) ? url.slice(0, -1) : url;
}

/**
 * Refuses authorization-server metadata whose `issuer` differs from the
 * issuer identifier its well-known URL was built from (RFC 8414 §3.3,
 * SEP-2468) with an {@link McpServerError}: a client must not use the
 * endpoints that metadata names.
 */
export function checkMetadataIssuer(server: string, state: OAuthDiscoveryState): void {
  const issuer = state.authorizationServerMetadata?.issuer;
  if (issuer === undefined) return;
  if (withoutRootSlash(issuer) !== withoutRootSlash(state.authorizationServerUrl)) {
    throw new McpServerError(
      server,
      `Authorization server metadata names issuer ${JSON.stringify(issuer)}, but was fetched for ${JSON.stringify(state.authorizationServerUrl)}: refused (RFC 8414 §3.3).`,
    );
  }
}

/**
 * The authorization code of a redirect's `response`, after the checks of
 * SEP-2468 (RFC 9207) against the authorization server the flow was started
 * with (`state`, recorded at discovery): a present `iss` must equal its
 * issuer exactly (no normalisation), and a missing one is refused when the
 * server advertised `authorization_response_iss_parameter_supported`. An
 * `error` response or one without a code is refused too (each an
 * {@link McpServerError} naming `server`). A bare code string
 * carries no `iss`, and a provider that recorded no discovery state gives
 * nothing to compare with: then the code is returned unchecked.
 */
export function authorizationCodeOf(
  server: string,
  response: McpAuthorizationResponse,
  state: OAuthDiscoveryState | undefined,
): string {
  if (typeof response === "string") return response;
  const params = response instanceof URL ? response.searchParams : response;
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description");
    throw new McpServerError(
      server,
      `The authorization server refused: ${error}${description ? ` (${description})` : ""}.`,
    );
  }
  const code = params.get("code");
  if (code === null || code === "") {
    throw new McpServerError(server, "The authorization response has no code.");
  }
  const metadata = state?.authorizationServerMetadata;
  const expected = metadata?.issuer;
  // Nothing recorded (a provider that keeps no discovery state): nothing to compare with.
  if (expected === undefined) return code;
  const iss = params.get("iss");
  if (iss !== null) {
    if (iss !== expected) {
      throw new McpServerError(
        server,
        `The authorization response's iss ${JSON.stringify(iss)} is not the authorization server the flow started with (${JSON.stringify(expected)}): refused (mix-up protection, RFC 9207).`,
      );
    }
  } else if (
    (metadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)
      ?.authorization_response_iss_parameter_supported === true
  ) {
    throw new McpServerError(
      server,
      `The authorization server ${expected} says it sends iss, but the authorization response has none: refused (RFC 9207).`,
    );
  }
  return code;
}
