import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { McpAuthorizationRedirect } from "./authorization-code-provider.js";
import type { McpElicitationHandler } from "./mcp-elicitation.js";
import type { McpSamplingModel } from "./mcp-sampling.js";
import { isSecureOrLoopback } from "./oauth-fetch-guard.js";
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
}

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
interface ResolvedClientFeatures {
  readonly onElicitation?: McpElicitationHandler;
  readonly roots?: readonly McpRoot[];
  readonly sampling?: McpSamplingModel;
  readonly logLevel?: McpLogLevel;
  readonly maxNotificationsPerCall?: number;
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

/** One minute, as the MCP SDK's own default. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

let builtSchemas: ReturnType<typeof buildServerSchemas> | undefined;

/** The schemas of a server's entry, built on first use (at module level they would be code every bundle keeps). */
function serverSchemas(): ReturnType<typeof buildServerSchemas> {
  builtSchemas ??= buildServerSchemas();
  return builtSchemas;
}

function buildServerSchemas() {
  const stringRecord = z.record(z.string(), z.string());
  const timeout = z.number().int().positive().optional();

  const contextKeys = z.array(z.string().min(1));
  /** A server's `context` rule: one of an allow list or a deny list of context keys. */
  const contextSchema = z
    .object({ allow: contextKeys.optional(), deny: contextKeys.optional() })
    .strict()
    .refine((rule) => (rule.allow === undefined) !== (rule.deny === undefined), {
      message: 'takes either "allow": [keys] or "deny": [keys]',
    })
    .optional();

  /**
   * Keys other MCP clients write into the same block (Cline's and Roo's approval
   * lists, a `disabled` switch, a free-text description): accepted so a config
   * copied from them loads; `disabled: true` servers are skipped by
   * `McpClients.fromConfig`. Any other unknown key is still an error, so a typo
   * such as `arg` for `args` is caught.
   */
  const clientFeatureKeys = {
    onElicitation: z
      .custom<McpElicitationHandler>((value) => typeof value === "function", {
        message: "must be a function (request, context) => result",
      })
      .optional(),
    roots: z
      .array(
        z.union([
          z.string().min(1),
          z.object({ uri: z.string().min(1), name: z.string().optional() }).strict(),
        ]),
      )
      .optional(),
    sampling: z
      .union([
        z.boolean(),
        z
          .object({
            role: z.string().min(1).optional(),
            maxTokens: z.number().int().min(1).optional(),
            maxCallsPerToolCall: z.number().int().min(0).optional(),
          })
          .strict(),
      ])
      .optional(),
    logLevel: z.enum(MCP_LOG_LEVELS).optional(),
    maxNotificationsPerCall: z.number().int().min(0).optional(),
  };

  const otherClientsKeys = {
    disabled: z.boolean().optional(),
    autoApprove: z.array(z.string()).optional(),
    alwaysAllow: z.array(z.string()).optional(),
    description: z.string().optional(),
  };

  /** What a stdio and an HTTP server's config both take. */
  const sharedKeys = {
    timeoutMs: timeout,
    connectTimeoutMs: timeout,
    context: contextSchema,
    searchable: z.boolean().optional(),
    ...clientFeatureKeys,
    ...otherClientsKeys,
  };

  const stdioSchema = z
    .object({
      type: z.literal("stdio").optional(),
      command: z.string().min(1),
      args: z.array(z.string()).optional(),
      env: stringRecord.optional(),
      cwd: z.string().min(1).optional(),
      ...sharedKeys,
    })
    .strict();

  /** An `oauth` block with client credentials. */
  const clientCredentialsSchema = z
    .object({
      clientId: z.string().min(1),
      clientSecret: z.string().min(1),
      scope: z.string().min(1).optional(),
      issuer: z.string().min(1).optional(),
    })
    .strict();

  /** An `oauth` block for the authorization-code flow (it has a `redirectUrl`). */
  const authorizationCodeSchema = z
    .object({
      redirectUrl: z.string().min(1),
      clientId: z.string().min(1).optional(),
      clientSecret: z.string().min(1).optional(),
      scope: z.string().min(1).optional(),
      clientName: z.string().min(1).optional(),
      clientMetadataUrl: z.string().min(1).optional(),
      onRedirect: z
        .custom<McpAuthorizationRedirect>((value) => typeof value === "function", {
          message: "must be a function (url, server) => void",
        })
        .optional(),
    })
    .strict();

  function httpSchemaWith<T extends typeof clientCredentialsSchema | typeof authorizationCodeSchema>(
    oauth: T,
  ) {
    return z
      .object({
        type: z.enum(["http", "streamable-http", "sse"]).optional(),
        url: z.string().min(1),
        headers: stringRecord.optional(),
        oauth: oauth.optional(),
        authProvider: z
          .custom<OAuthClientProvider>(
            (value) =>
              typeof value === "object" &&
              value !== null &&
              typeof (value as { tokens?: unknown }).tokens === "function",
            { message: "must be an OAuthClientProvider of the MCP SDK (with tokens(), saveTokens(), …)" },
          )
          .optional(),
        ...sharedKeys,
      })
      .strict();
  }

  const httpSchema = httpSchemaWith(clientCredentialsSchema);
  const httpCodeFlowSchema = httpSchemaWith(authorizationCodeSchema);

  return { stdio: stdioSchema, http: httpSchema, httpCodeFlow: httpCodeFlowSchema };
}

const VARIABLE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `text` with `${VAR}` and `${env:VAR}` replaced from `env`; a missing variable is a {@link ConfigurationError} naming it. */
export function expandVariables(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): string {
  return text.replace(VARIABLE, (_match, name: string) => {
    const value = env[name];
    if (value === undefined) {
      throw new ConfigurationError(
        `${where} uses \${${name}}, but the environment variable ${name} is not set.`,
      );
    }
    return value;
  });
}

function expandRecord(
  record: Readonly<Record<string, string>> | undefined,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): Record<string, string> | undefined {
  if (record === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, expandVariables(value, env, `${where}.${key}`)]),
  );
}

function expandAuthorizationCode(
  oauth: McpOAuthAuthorizationCode,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
  onAuthorizationRedirect: McpAuthorizationRedirect | undefined,
): McpOAuthAuthorizationCode {
  const expanded: Record<string, unknown> = {};
  for (const key of [
    "redirectUrl",
    "clientId",
    "clientSecret",
    "scope",
    "clientName",
    "clientMetadataUrl",
  ] as const) {
    const value = oauth[key];
    if (value !== undefined) expanded[key] = expandVariables(value, env, `${where}.${key}`);
  }
  try {
    new URL(expanded.redirectUrl as string);
  } catch {
    throw new ConfigurationError(`${where}.redirectUrl is not a URL: '${String(expanded.redirectUrl)}'.`);
  }
  const onRedirect = oauth.onRedirect ?? onAuthorizationRedirect;
  return { ...(expanded as unknown as McpOAuthAuthorizationCode), ...(onRedirect ? { onRedirect } : {}) };
}

function expandOAuth(
  oauth: McpOAuthClientCredentials,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): McpOAuthClientCredentials {
  const issuer =
    oauth.issuer === undefined ? undefined : expandVariables(oauth.issuer, env, `${where}.issuer`);
  if (issuer !== undefined) {
    try {
      new URL(issuer);
    } catch {
      throw new ConfigurationError(`${where}.issuer is not a URL: '${issuer}'.`);
    }
  }
  return {
    clientId: expandVariables(oauth.clientId, env, `${where}.clientId`),
    clientSecret: expandVariables(oauth.clientSecret, env, `${where}.clientSecret`),
    ...(oauth.scope === undefined ? {} : { scope: expandVariables(oauth.scope, env, `${where}.scope`) }),
    ...(issuer === undefined ? {} : { issuer }),
  };
}

/** Client credentials go over https only, or plain http to this machine. */
function checkOAuthTransport(
  url: string,
  oauth: McpOAuthClientCredentials | McpOAuthAuthorizationCode,
  where: string,
): void {
  const issuer = "issuer" in oauth ? oauth.issuer : undefined;
  for (const [field, value] of [
    ["url", url],
    ["oauth.issuer", issuer],
  ] as const) {
    if (value !== undefined && !isSecureOrLoopback(new URL(value))) {
      throw new ConfigurationError(
        `${where}.${field} is plain http ('${value}'): OAuth client credentials are sent over https only (or http to 127.0.0.1 / localhost).`,
      );
    }
  }
}

/**
 * Checks one server's config, expands its variables and decides its transport
 * (`command` → stdio, `url` → Streamable HTTP). A config that fits neither is
 * a {@link ConfigurationError} naming the server and the field.
 */
export function resolveMcpServerConfig(
  name: string,
  config: unknown,
  options: McpConfigOptions = {},
): ResolvedMcpServerConfig {
  const env = options.env ?? process.env;
  const where = `mcpServers.${name}`;
  const isObject = typeof config === "object" && config !== null;
  const oauth = isObject ? (config as { oauth?: unknown }).oauth : undefined;
  const codeFlow = typeof oauth === "object" && oauth !== null && "redirectUrl" in oauth;
  const schemas = serverSchemas();
  const schema =
    isObject && "url" in config ? (codeFlow ? schemas.httpCodeFlow : schemas.http) : schemas.stdio;
  if (!isObject || !("url" in config || "command" in config)) {
    throw new ConfigurationError(
      `${where} needs either "command" (a server started over stdio) or "url" (a server reached over HTTP).`,
    );
  }
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${[where, ...issue.path.map(String)].join(".")}: ${issue.message}`)
      .join("; ");
    throw new ConfigurationError(`Invalid MCP server config: ${problems}`);
  }
  const rule = parsed.data.context;
  const context: { context?: McpContextForwarding } = !rule
    ? {}
    : rule.allow
      ? { context: { allow: rule.allow } }
      : { context: { deny: rule.deny ?? [] } };
  const features = resolveClientFeatures(parsed.data, options, where);
  const timeoutMs = parsed.data.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  const connectTimeoutMs = parsed.data.connectTimeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  if ("url" in parsed.data) {
    const url = expandVariables(parsed.data.url, env, `${where}.url`);
    try {
      new URL(url);
    } catch {
      throw new ConfigurationError(`${where}.url is not a URL: '${url}'.`);
    }
    const headers = expandRecord(parsed.data.headers, env, `${where}.headers`);
    const type = parsed.data.type === "streamable-http" ? "http" : parsed.data.type;
    const rawOAuth = parsed.data.oauth;
    const oauth =
      rawOAuth === undefined
        ? undefined
        : "redirectUrl" in rawOAuth
          ? expandAuthorizationCode(rawOAuth, env, `${where}.oauth`, options.onAuthorizationRedirect)
          : expandOAuth(rawOAuth as McpOAuthClientCredentials, env, `${where}.oauth`);
    if (oauth) checkOAuthTransport(url, oauth, where);
    const authProvider = parsed.data.authProvider;
    return {
      transport: "http",
      name,
      url,
      timeoutMs,
      connectTimeoutMs,
      ...(parsed.data.searchable ? { searchable: true } : {}),
      ...(type ? { type } : {}),
      ...(headers ? { headers } : {}),
      ...(oauth ? { oauth } : {}),
      ...(authProvider ? { authProvider } : {}),
      ...context,
      ...features,
    };
  }
  const stdio = parsed.data as McpStdioServerConfig;
  const command = expandVariables(stdio.command, env, `${where}.command`);
  const args = (stdio.args ?? []).map((arg, index) => expandVariables(arg, env, `${where}.args[${index}]`));
  const childEnv = expandRecord(stdio.env, env, `${where}.env`);
  const rawCwd = stdio.cwd === undefined ? undefined : expandVariables(stdio.cwd, env, `${where}.cwd`);
  const cwd =
    rawCwd === undefined || isAbsolute(rawCwd) ? rawCwd : resolve(options.baseDir ?? process.cwd(), rawCwd);
  return {
    transport: "stdio",
    name,
    command,
    args,
    timeoutMs,
    connectTimeoutMs,
    ...(stdio.searchable ? { searchable: true } : {}),
    ...(childEnv ? { env: childEnv } : {}),
    ...(cwd ? { cwd } : {}),
    ...context,
    ...features,
  };
}

/** A server's `onElicitation`, `roots` and `sampling`, with the options' defaults. */
function resolveClientFeatures(
  features: McpClientFeatures,
  options: McpConfigOptions,
  where: string,
): ResolvedClientFeatures {
  const onElicitation = features.onElicitation ?? options.onElicitation;
  const roots = features.roots?.map((root) => rootOf(root, `${where}.roots`));
  let sampling: McpSamplingModel | undefined;
  if (features.sampling) {
    if (!options.samplingModel) {
      throw new ConfigurationError(
        `${where}.sampling needs models to answer with: create the clients with AgentPlatform.create (or pass McpConfigOptions.samplingModel).`,
      );
    }
    const limits = features.sampling === true ? {} : features.sampling;
    sampling = {
      role: limits.role ?? "default",
      model: options.samplingModel,
      ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
      ...(limits.maxCallsPerToolCall === undefined
        ? {}
        : { maxCallsPerToolCall: limits.maxCallsPerToolCall }),
    };
  }
  return {
    ...(onElicitation ? { onElicitation } : {}),
    ...(roots ? { roots } : {}),
    ...(sampling ? { sampling } : {}),
    ...(features.logLevel === undefined ? {} : { logLevel: features.logLevel }),
    ...(features.maxNotificationsPerCall === undefined
      ? {}
      : { maxNotificationsPerCall: features.maxNotificationsPerCall }),
  };
}

/** A configured root as `{ uri, name? }`: an absolute path becomes a `file://` URI named after its last segment. */
function rootOf(root: string | McpRoot, where: string): McpRoot {
  if (typeof root !== "string")
    return root.name === undefined ? { uri: root.uri } : { uri: root.uri, name: root.name };
  if (isAbsolute(root))
    return { uri: pathToFileURL(root).href, name: root.split(/[\\/]/).filter(Boolean).pop() ?? root };
  try {
    return { uri: new URL(root).href };
  } catch {
    throw new ConfigurationError(`${where}: '${root}' is neither an absolute path nor a URI.`);
  }
}
