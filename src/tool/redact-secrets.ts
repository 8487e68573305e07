/** What stands in for a removed secret. */
export const REDACTED = "[REDACTED]";

// Header- or field-style credentials: `Authorization: Bearer …`, `"api-key":"…"`, `x-api-key=…`.
const NAMED_SECRET =
  /\b((?:proxy-)?authorization|x-api-key|api[-_]?key)(["']?\s*[:=]\s*["']?)(?:(bearer|basic|token)\s+)?([^\s"',;&)\]}>]+)/gi;
// A bearer token written anywhere else (`… sent Bearer eyJ…`).
const BEARER = /\b(bearer)\s+([A-Za-z0-9\-._~+/]{8,}=*)/gi;
// Provider keys shaped `sk-…` (OpenAI, Anthropic `sk-ant-…`, most OpenAI-compatible servers).
const SK_KEY = /\bsk-[A-Za-z0-9_-]{12,}/g;
// `scheme://user:password@host`: the user information of a URL.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]+)@/gi;
// Cheap test first: most text holds none of these, and is returned as is.
const MAYBE_SECRET = /authorization|api[-_]?key|bearer|\bsk-|:\/\/[^\s/?#@"'<>]+@/i;

/**
 * `text` with credentials replaced by {@link REDACTED}: `Authorization`,
 * `api-key` and `x-api-key` values (header, JSON or query style), bearer
 * tokens, `sk-…` keys and the `user:password@` part of URLs. The CLI's
 * terminal, trace files and the studio all pass provider error text and
 * URLs through it, so a key a provider echoes in its error is not kept.
 *
 * @example
 * redactSecrets("401 for Authorization: Bearer sk-abc…"); // "401 for Authorization: Bearer [REDACTED]"
 */
export function redactSecrets(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  return text
    .replace(URL_USERINFO, (_match, scheme: string) => `${scheme}${REDACTED}@`)
    .replace(
      NAMED_SECRET,
      (match, name: string, separator: string, scheme: string | undefined, value: string) => {
        if (value.startsWith(REDACTED.slice(0, -1))) return match; // already redacted
        return scheme ? `${name}${separator}${scheme} ${REDACTED}` : `${name}${separator}${REDACTED}`;
      },
    )
    .replace(BEARER, (_match, word: string) => `${word} ${REDACTED}`)
    .replace(SK_KEY, REDACTED);
}

/** `value` with {@link redactSecrets} applied to every string in it (objects and arrays copied, other values as they are). */
export function redactSecretsDeep<T>(value: T): T {
  return redactValue(value, 0) as T;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (typeof value !== "object" || value === null || depth > 200) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key, {
      value: redactValue(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
