import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets, redactSecretsDeep } from "./redact-secrets.js";

describe("redactSecrets", () => {
  it("removes Authorization, api-key and x-api-key values in header, JSON and query style", () => {
    expect(redactSecrets("Authorization: Bearer abc.def-123")).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactSecrets('{"authorization":"Basic dXNlcjpwdw=="}')).toBe(
      `{"authorization":"Basic ${REDACTED}"}`,
    );
    expect(redactSecrets("api-key: 0123456789abcdef")).toBe(`api-key: ${REDACTED}`);
    expect(redactSecrets('{"x-api-key":"k-9"}')).toBe(`{"x-api-key":"${REDACTED}"}`);
    expect(redactSecrets("GET /v1?api_key=s3cret&x=1")).toBe(`GET /v1?api_key=${REDACTED}&x=1`);
  });

  it("removes sk- keys and bare bearer tokens", () => {
    expect(redactSecrets("Incorrect API key provided: sk-compat-SECRET-123.")).toBe(
      `Incorrect API key provided: ${REDACTED}.`,
    );
    expect(redactSecrets("key sk-ant-api03-abcdefghijklmnop")).toBe(`key ${REDACTED}`);
    expect(redactSecrets("sent bearer eyJhbGciOiJIUzI1NiJ9.x")).toBe(`sent bearer ${REDACTED}`);
  });

  it("removes the user information of URLs", () => {
    expect(redactSecrets("openai-compatible:gpt@http://user:basic-SECRET-pw@127.0.0.1:9999/v1")).toBe(
      `openai-compatible:gpt@http://${REDACTED}@127.0.0.1:9999/v1`,
    );
    expect(redactSecrets("redis://:pw@localhost:6379")).toBe(`redis://${REDACTED}@localhost:6379`);
  });

  it("leaves ordinary text alone, including words that merely contain sk- and e-mail addresses", () => {
    for (const text of [
      "task-1234567890abcdef is done",
      "mail ada@example.com about http://example.com/a@b",
      "the studio at http://127.0.0.1:4477/?token=abc",
      "no secrets here",
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });

  it("is idempotent", () => {
    const once = redactSecrets("Authorization: Bearer sk-aaaaaaaaaaaaaaaa http://u:p@h");
    expect(redactSecrets(once)).toBe(once);
  });
});

describe("redactSecretsDeep", () => {
  it("redacts every string of a value and keeps the rest, __proto__ keys as own keys", () => {
    const value = JSON.parse('{"a":["sk-aaaaaaaaaaaaaaaa",1],"b":{"c":null},"__proto__":{"d":"x"}}');
    const redacted = redactSecretsDeep(value) as Record<string, unknown>;
    expect(redacted.a).toEqual([REDACTED, 1]);
    expect(redacted.b).toEqual({ c: null });
    expect(Object.hasOwn(redacted, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
  });
});
