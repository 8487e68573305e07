// A configured server's OAuth: the provider (made once, so its tokens outlive
// a reconnect) and the authorization-code flow awaiting its callback.

import type { OAuthClientProvider, Transport } from "@modelcontextprotocol/client";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AuthorizationCodeProvider } from "./authorization-code-provider.js";
import { authorizationCodeOf, type McpAuthorizationResponse } from "./authorization-response.js";
import type { McpClientSdk } from "./load-mcp-sdk.js";
import type { ResolvedMcpServerConfig } from "./mcp-server-config.js";

/** The OAuth state of one configured server. */
export class McpClientAuth {
  private provider: OAuthClientProvider | undefined;
  /** The transport whose request was answered by an authorization redirect, until {@link finish}: no liveness ping meanwhile. */
  authorizing: Transport | undefined;

  constructor(private readonly config: ResolvedMcpServerConfig) {}

  /** The OAuth provider of an HTTP server, made once so its tokens outlive a reconnect; `undefined` without OAuth. */
  providerFor(sdk: McpClientSdk): OAuthClientProvider | undefined {
    const config = this.config;
    if (config.transport !== "http") return undefined;
    if (config.authProvider) return config.authProvider;
    const oauth = config.oauth;
    if (!oauth) return undefined;
    if (this.provider) return this.provider;
    if ("redirectUrl" in oauth) {
      this.provider = new AuthorizationCodeProvider({ server: config.name, ...oauth });
      return this.provider;
    }
    // With an issuer, the SDK stamps it on the credentials (SEP-2352) and sends them nowhere else.
    const provider = new sdk.ClientCredentialsProvider({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      expectedIssuer: oauth.issuer ?? new URL(config.url).origin,
      ...(oauth.scope ? { scope: oauth.scope } : {}),
    });
    // Without one, the credentials carry no stamp: they bind to the first authorization server on the
    // server's own origin that accepts them (any path there), and the fetch guard keeps them on it.
    if (!oauth.issuer) {
      const stamped = provider.clientInformation.bind(provider);
      provider.clientInformation = () => {
        const { issuer: _issuer, ...unstamped } = stamped();
        return unstamped;
      };
    }
    this.provider = provider;
    return provider;
  }

  /**
   * Exchanges the code of `response` for tokens over `transport` (the one the
   * flow started on, else `fallback()`); see `McpClient.finishAuth`.
   */
  async finish(
    sdk: McpClientSdk,
    response: McpAuthorizationResponse,
    fallback: () => Transport,
  ): Promise<void> {
    const provider = this.providerFor(sdk);
    if (!provider) {
      throw new ConfigurationError(
        `MCP server '${this.config.name}' has no OAuth authorization-code flow to finish: configure oauth.redirectUrl or an authProvider.`,
      );
    }
    const authorizationCode = authorizationCodeOf(
      this.config.name,
      response,
      provider instanceof AuthorizationCodeProvider
        ? provider.authorizationServer
        : await provider.discoveryState?.(),
    );
    // The response's iss goes along: the SDK checks it again against the metadata it discovers (RFC 9207).
    const iss = typeof response === "string" ? null : issOf(response);
    const transport = this.authorizing ?? fallback();
    await (
      transport as InstanceType<
        McpClientSdk["StreamableHTTPClientTransport"] | McpClientSdk["SSEClientTransport"]
      >
    ).finishAuth(authorizationCode, iss ?? undefined);
    this.authorizing = undefined;
  }
}

/** The `iss` parameter of a redirect's callback URL or query, `null` without one. */
function issOf(response: URL | URLSearchParams): string | null {
  return (response instanceof URL ? response.searchParams : response).get("iss");
}
