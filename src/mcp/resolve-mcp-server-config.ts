// Reading one `mcpServers` entry: checked, variables expanded, transport decided (the types are in mcp-server-config.ts).

import { isAbsolute, resolve } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { McpAuthorizationRedirect } from "./authorization-code-provider.js";
import type { McpElicitationHandler } from "./mcp-elicitation.js";
import type {
  McpConfigOptions,
  McpOAuthAuthorizationCode,
  McpOAuthClientCredentials,
  McpStdioServerConfig,
  ResolvedMcpServerConfig,
} from "./mcp-server-config.js";
import { MCP_LOG_LEVELS, MCP_PROTOCOL_VERSIONS } from "./mcp-server-config.js";
import { isSecureOrLoopback } from "./oauth-fetch-guard.js";
import { resolveClientFeatures } from "./resolve-client-features.js";
import type { McpContextForwarding } from "./tool-call-context-mcp-meta-converter.js";

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
    protocolVersion: z.enum(MCP_PROTOCOL_VERSIONS).optional(),
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
