import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { Logger } from "../tool/logger.js";
import { checkMetadataIssuer } from "./authorization-response.js";
import type { McpOAuthAuthorizationCode } from "./mcp-server-config.js";

/** Called with the URL a person must open to authorize the client (the authorization-code flow's redirect). */
export type McpAuthorizationRedirect = (authorizationUrl: URL, server: string) => void | Promise<void>;

/** What {@link AuthorizationCodeProvider} is made from: a server's `oauth` block with a `redirectUrl`, and the server's name. */
export interface AuthorizationCodeSettings extends McpOAuthAuthorizationCode {
  readonly server: string;
}

/**
 * An in-memory OAuth provider for the authorization-code flow (PKCE):
 * registers dynamically unless a client id is given, hands the authorization
 * URL to `onRedirect` (by default: a warning saying which URL to open), and
 * keeps the tokens for the life of the process. `McpClient.finishAuth(code)`
 * completes the flow.
 */
export class AuthorizationCodeProvider implements OAuthClientProvider {
  private information: OAuthClientInformationMixed | undefined;
  private savedTokens: OAuthTokens | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  /** {@link discovery} while its flow awaits the code: forgotten once tokens come, so a later 401 discovers afresh. */
  private pendingDiscovery: OAuthDiscoveryState | undefined;
  readonly clientMetadataUrl?: string;

  constructor(private readonly settings: AuthorizationCodeSettings) {
    if (settings.clientId !== undefined) {
      this.information = {
        client_id: settings.clientId,
        ...(settings.clientSecret !== undefined ? { client_secret: settings.clientSecret } : {}),
      };
    }
    if (settings.clientMetadataUrl !== undefined) this.clientMetadataUrl = settings.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.settings.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.settings.clientName ?? "embabel-ts",
      redirect_uris: [this.settings.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.settings.clientSecret !== undefined ? "client_secret_basic" : "none",
      ...(this.settings.scope !== undefined ? { scope: this.settings.scope } : {}),
      // SEP-837: registered as what it is (the SDK sends these fields as they are).
      application_type: applicationTypeOf(this.settings.redirectUrl),
    } as OAuthClientMetadata;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.savedTokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.savedTokens = tokens;
    this.pendingDiscovery = undefined;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const { onRedirect, server } = this.settings;
    if (onRedirect) return onRedirect(authorizationUrl, server);
    Logger.current().warn(
      `MCP server '${server}' needs authorization: open ${authorizationUrl.href}, then call mcpClients.finishAuth("${server}", code) with the code your redirect URL receives.`,
      { server },
    );
  }

  /**
   * Records the authorization server found at discovery (before registering
   * or redirecting), refusing metadata whose `issuer` is not the server it was
   * fetched for; `McpClient.finishAuth` checks the response's `iss` against it.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    checkMetadataIssuer(this.settings.server, state);
    this.discovery = state;
    this.pendingDiscovery = state;
  }

  /** The authorization server the last flow was started with (see {@link saveDiscoveryState}). */
  get authorizationServer(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /**
   * What {@link saveDiscoveryState} recorded, until the flow it started got
   * its tokens: the SDK reads it to finish that flow. Afterwards nothing, so
   * that a later 401 discovers again (the server may name another
   * authorization server now; SEP-2352).
   */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.pendingDiscovery;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new Error("No authorization was started: there is no PKCE code verifier.");
    return this.verifier;
  }
}

/**
 * SEP-837's `application_type` for a redirect URL: "native" for a loopback
 * host (localhost, 127.0.0.0/8, [::1]) or a custom scheme (an app or CLI),
 * else "web".
 */
export function applicationTypeOf(redirectUrl: string): "native" | "web" {
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return "native";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "native";
  // The loopback test of mcp-http-guard.ts, not imported: that file loads node:crypto, this one runs anywhere.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host) ? "native" : "web";
}
