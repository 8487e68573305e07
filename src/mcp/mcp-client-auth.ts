// A configured server's OAuth: the provider (made once, so its tokens outlive
// a reconnect) and the authorization-code flow awaiting its callback.

import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
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
    const provider = new sdk.ClientCredentialsProvider({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      expectedIssuer: oauth.issuer ?? new URL(config.url).origin,
      ...(oauth.scope ? { scope: oauth.scope } : {}),
    });
    // Without an issuer, the credentials bind to the first authorization server on the
    // server's own origin that accepts them (any path there); the fetch guard keeps them on it.
    if (!oauth.issuer)
      provider.saveClientInformation({ client_id: oauth.clientId, client_secret: oauth.clientSecret });
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
    const transport = this.authorizing ?? fallback();
    await (
      transport as InstanceType<
        McpClientSdk["StreamableHTTPClientTransport"] | McpClientSdk["SSEClientTransport"]
      >
    ).finishAuth(authorizationCode);
    this.authorizing = undefined;
  }
}
