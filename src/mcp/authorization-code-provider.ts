import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { Logger } from "../tool/logger.js";
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
    };
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
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const { onRedirect, server } = this.settings;
    if (onRedirect) return onRedirect(authorizationUrl, server);
    Logger.current().warn(
      `MCP server '${server}' needs authorization: open ${authorizationUrl.href}, then call mcpClients.finishAuth("${server}", code) with the code your redirect URL receives.`,
      { server },
    );
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
