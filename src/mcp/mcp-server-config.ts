import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { McpAuthorizationRedirect } from "./authorization-code-provider.js";
import type { McpElicitationHandler } from "./mcp-elicitation.js";
import type { McpSamplingModel } from "./mcp-sampling.js";
import type { McpContextForwarding } from "./tool-call-context-mcp-meta-converter.js";

/** A root the client offers a server (`roots/list`): a `file://` URI and a name. */
export interface McpRoot {
  readonly uri: string;
  readonly name?: string;
}

/** What a server may ask of the client, the same for every transport. */
export interface McpClientFeatures {
  /** Answers the server's requests for user input (`elicitation/create`). @default the McpConfigOptions' (the platform's) `onElicitation`, else a request of the agent process the call runs in, else decline */
  readonly onElicitation?: McpElicitationHandler;
  /** Roots offered to the server: absolute paths or URIs, or `{ uri, name }`. @default none (the capability is not declared) */
  readonly roots?: readonly (string | McpRoot)[];
  /**
   * Lets the server ask a model (`sampling/createMessage`) during tool calls
   * of agent processes, which pay for it: `true` for the `default` role, or
   * `{ role, maxTokens, maxCallsPerToolCall }` (at most 4096 tokens and 10
   * requests per tool call by default). @default false (not declared)
   */
  readonly sampling?:
    | boolean
    | { readonly role?: string; readonly maxTokens?: number; readonly maxCallsPerToolCall?: number };
  /**
   * The least severe of the server's log messages kept (asked of the server
   * with `logging/setLevel` when it declares logging; less severe ones it
   * sends anyway are dropped). @default "warning"
   */
  readonly logLevel?: McpLogLevel;
  /** Log and progress notifications kept per tool call; the rest are counted in one "… more suppressed" record. @default 100 */
  readonly maxNotificationsPerCall?: number;
  /**
   * The MCP protocol revision to speak. `"2025-11-25"`: `initialize` at once,
   * no `server/discover` probe (a session, server-sent elicitation, resumable
   * streams); `"2026-07-28"`: a server that does not answer `server/discover`
   * fails to connect instead of being spoken to at 2025-11-25.
   * @default whichever the server speaks (`server/discover` first, then `initialize`)
   */
  readonly protocolVersion?: McpProtocolVersion;
}

/** The MCP protocol revisions the client speaks. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2026-07-28"] as const;

/** An MCP protocol revision the client speaks. */
export type McpProtocolVersion = (typeof MCP_PROTOCOL_VERSIONS)[number];

/** The MCP log levels (RFC 5424's), least to most severe. */
export const MCP_LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** An MCP log level. */
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/** A server started as a child process and spoken to over stdio (the Claude Desktop format). */
export interface McpStdioServerConfig extends McpClientFeatures {
  readonly type?: "stdio";
  /** The program to run (`node`, `npx`, an absolute path). */
  readonly command: string;
  /** Its arguments. @default [] */
  readonly args?: readonly string[];
  /** Extra environment; the child otherwise gets only HOME, LOGNAME, PATH, SHELL, TERM and USER. @default {} */
  readonly env?: Readonly<Record<string, string>>;
  /** The child's working directory (relative to the config file's folder when read from one). @default the current one */
  readonly cwd?: string;
  /** How long one call may take before it is cancelled. @default 60000 */
  readonly timeoutMs?: number;
  /** How long starting (or reaching) the server and the MCP handshake may take. @default 60000 */
  readonly connectTimeoutMs?: number;
  /** A server switched off, as Cline and Roo write it: `McpClients.fromConfig` skips it. @default false */
  readonly disabled?: boolean;
  /**
   * Which `ToolCallContext` keys this server may receive as `_meta`:
   * `{ allow: [...] }` (recommended for third-party servers) or
   * `{ deny: [...] }`; it narrows whatever converter is in force.
   * @default every key the converter gives (the chapter's passThrough)
   */
  readonly context?: McpContextForwarding;
  /** Offer this server's tools in a tool group behind one search tool (`UnfoldingTool.searchable`) instead of one by one. @default false */
  readonly searchable?: boolean;
}

/**
 * OAuth 2.1 client credentials (machine to machine) for a server behind an
 * authorization server: the client discovers the authorization server from
 * the server's 401 (the MCP authorization spec), asks it for a token with
 * `client_secret_basic`, sends it as a bearer token, and asks again when refused.
 */
export interface McpOAuthClientCredentials {
  readonly clientId: string;
  /** Write it as `${ENV_VAR}` in a config file. */
  readonly clientSecret: string;
  /** Space-separated scopes to ask for. @default none */
  readonly scope?: string;
  /** The authorization server's issuer URL, when it is not on the MCP server's own origin: the secret is sent to that server only. @default an authorization server on the MCP server's own origin */
  readonly issuer?: string;
}

/**
 * OAuth 2.1 authorization code with PKCE (a person signs in): the client
 * discovers the authorization server, registers itself dynamically (or uses
 * `clientId`, or `clientMetadataUrl`), and hands the authorization URL to
 * `onRedirect`; your redirect URL's handler then calls
 * `mcpClients.finishAuth(server, code)`. Tokens are kept in memory.
 */
export interface McpOAuthAuthorizationCode {
  /** Where the authorization server sends the person back with `?code=…`. */
  readonly redirectUrl: string;
  /** A pre-registered client id. @default registered dynamically */
  readonly clientId?: string;
  /** The pre-registered client's secret. @default none (a public client) */
  readonly clientSecret?: string;
  /** Space-separated scopes to ask for. @default what the server asks for */
  readonly scope?: string;
  /** The name shown on the consent screen. @default "embabel-ts" */
  readonly clientName?: string;
  /** An https URL of a client-ID metadata document, used instead of registering. @default none */
  readonly clientMetadataUrl?: string;
  /** Opens the authorization URL (a browser, a link in your UI). Programmatic configs only. @default a warning naming the URL */
  readonly onRedirect?: McpAuthorizationRedirect;
}

/**
 * A server reached over HTTP: `{ type: "http", url }` (as VS Code writes it)
 * for Streamable HTTP, `{ type: "sse", url }` for the legacy HTTP+SSE
 * transport, and a bare `{ url }` tries Streamable HTTP, then falls back to
 * HTTP+SSE when the server answers the first request 4xx (as older servers do).
 */
export interface McpHttpServerConfig extends McpClientFeatures {
  /** @default tries "http", then "sse" */
  readonly type?: "http" | "streamable-http" | "sse";
  /** The endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** Headers sent with every request (e.g. `Authorization`). @default {} */
  readonly headers?: Readonly<Record<string, string>>;
  /** OAuth client credentials, or an authorization-code flow (with `redirectUrl`): tokens are fetched and sent for you. @default none */
  readonly oauth?: McpOAuthClientCredentials | McpOAuthAuthorizationCode;
  /** Any OAuth client provider of the MCP SDK (an authorization-code flow, your own token store); wins over `oauth`. Programmatic configs only. @default none */
  readonly authProvider?: OAuthClientProvider;
  /** How long one call may take before it is cancelled. @default 60000 */
  readonly timeoutMs?: number;
  /** How long starting (or reaching) the server and the MCP handshake may take. @default 60000 */
  readonly connectTimeoutMs?: number;
  /** A server switched off, as Cline and Roo write it: `McpClients.fromConfig` skips it. @default false */
  readonly disabled?: boolean;
  /**
   * Which `ToolCallContext` keys this server may receive as `_meta`:
   * `{ allow: [...] }` (recommended for third-party servers) or
   * `{ deny: [...] }`; it narrows whatever converter is in force.
   * @default every key the converter gives (the chapter's passThrough)
   */
  readonly context?: McpContextForwarding;
  /** Offer this server's tools in a tool group behind one search tool (`UnfoldingTool.searchable`) instead of one by one. @default false */
  readonly searchable?: boolean;
}

/** One entry of an `mcpServers` block. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The block Claude Desktop, Cursor and VS Code use: server names to their configs. */
export type McpServersConfig = Readonly<Record<string, McpServerConfig>>;

/** The client features of a server config, resolved. */
export interface ResolvedClientFeatures {
  readonly onElicitation?: McpElicitationHandler;
  readonly roots?: readonly McpRoot[];
  readonly sampling?: McpSamplingModel;
  readonly logLevel?: McpLogLevel;
  readonly maxNotificationsPerCall?: number;
  readonly protocolVersion?: McpProtocolVersion;
}

/** A server config checked, with variables expanded and the transport decided. */
export type ResolvedMcpServerConfig =
  | (Omit<McpStdioServerConfig, keyof McpClientFeatures> &
      ResolvedClientFeatures & {
        readonly transport: "stdio";
        readonly name: string;
        readonly timeoutMs: number;
        readonly connectTimeoutMs: number;
      })
  | (Omit<McpHttpServerConfig, keyof McpClientFeatures> &
      ResolvedClientFeatures & {
        readonly transport: "http";
        readonly name: string;
        readonly timeoutMs: number;
        readonly connectTimeoutMs: number;
      });

/** Options for reading an `mcpServers` block. */
export interface McpConfigOptions {
  /** Where `${VAR}` and `${env:VAR}` are looked up. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The folder relative `cwd` values are resolved against (the config file's). @default process.cwd() */
  readonly baseDir?: string;
  /** Opens the authorization URL of a server whose `oauth` block has a `redirectUrl` and no `onRedirect` of its own. @default a warning naming the URL */
  readonly onAuthorizationRedirect?: McpAuthorizationRedirect;
  /** Answers elicitations of servers without an `onElicitation` of their own. @default none */
  readonly onElicitation?: McpElicitationHandler;
  /** Finds a role's model for servers with `sampling` enabled (the platform gives its registry's). @default none: enabling sampling is then a ConfigurationError */
  readonly samplingModel?: McpSamplingModel["model"];
}
