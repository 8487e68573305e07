import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { McpServerError } from "../errors/mcp-server-error.js";
import { AuthorizationCodeProvider, applicationTypeOf } from "./authorization-code-provider.js";
import { authorizationCodeOf, checkMetadataIssuer } from "./authorization-response.js";

const ISSUER = "https://as.example/tenant";

function state(issuer: string, extra: Record<string, unknown> = {}, url = issuer): OAuthDiscoveryState {
  return {
    authorizationServerUrl: url,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      response_types_supported: ["code"],
      ...extra,
    },
  } as OAuthDiscoveryState;
}

const callback = (query: string) => new URL(`http://localhost:3000/callback?${query}`);

describe("authorizationCodeOf (RFC 9207 / SEP-2468)", () => {
  it("returns the code of a response whose iss is the flow's issuer, exactly", () => {
    expect(
      authorizationCodeOf("s", callback(`code=abc&iss=${encodeURIComponent(ISSUER)}`), state(ISSUER)),
    ).toBe("abc");
    expect(authorizationCodeOf("s", new URLSearchParams({ code: "q", iss: ISSUER }), state(ISSUER))).toBe(
      "q",
    );
  });

  it("refuses an iss of another authorization server, or the same one normalised differently", () => {
    for (const iss of [
      "https://evil.example/tenant",
      `${ISSUER}/`,
      "HTTPS://as.example/tenant",
      "https://as.example:443/tenant",
    ]) {
      expect(() =>
        authorizationCodeOf("s", callback(`code=abc&iss=${encodeURIComponent(iss)}`), state(ISSUER)),
      ).toThrow(/not the authorization server the flow started with/);
    }
  });

  it("refuses a present iss the server never advertised, when it differs", () => {
    expect(() =>
      authorizationCodeOf("s", callback("code=abc&iss=https%3A%2F%2Fother.example"), state(ISSUER)),
    ).toThrow(McpServerError);
  });

  it("refuses a missing iss only when the server advertised it", () => {
    const advertised = state(ISSUER, { authorization_response_iss_parameter_supported: true });
    expect(() => authorizationCodeOf("srv", callback("code=abc"), advertised)).toThrow(
      /says it sends iss, but the authorization response has none/,
    );
    expect(authorizationCodeOf("s", callback("code=abc"), state(ISSUER))).toBe("abc");
  });

  it("refuses an error response and one without a code, naming the server", () => {
    const error = (() => {
      try {
        authorizationCodeOf("weather", callback("error=access_denied&error_description=no"), state(ISSUER));
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as McpServerError).server).toBe("weather");
    expect((error as Error).message).toBe("The authorization server refused: access_denied (no).");
    expect(() => authorizationCodeOf("s", callback("state=x"), state(ISSUER))).toThrow(/has no code/);
  });

  it("takes a bare code as it is, and checks nothing without recorded discovery", () => {
    const advertised = state(ISSUER, { authorization_response_iss_parameter_supported: true });
    expect(authorizationCodeOf("s", "plain", advertised)).toBe("plain");
    expect(authorizationCodeOf("s", callback("code=abc&iss=https%3A%2F%2Fany.example"), undefined)).toBe(
      "abc",
    );
  });
});

describe("checkMetadataIssuer (RFC 8414 §3.3)", () => {
  it("accepts metadata naming the issuer it was fetched for (a root URL's added slash aside)", () => {
    expect(() => checkMetadataIssuer("s", state(ISSUER))).not.toThrow();
    expect(() =>
      checkMetadataIssuer("s", state("https://as.example", {}, "https://as.example/")),
    ).not.toThrow();
  });

  it("refuses metadata naming another issuer", () => {
    expect(() => checkMetadataIssuer("s", state("https://evil.example", {}, ISSUER))).toThrow(
      /names issuer "https:\/\/evil.example", but was fetched for "https:\/\/as.example\/tenant"/,
    );
    expect(() => checkMetadataIssuer("s", state(`${ISSUER}/x`, {}, ISSUER))).toThrow(McpServerError);
  });

  it("is what the authorization-code provider does when the SDK saves discovery state", () => {
    const provider = new AuthorizationCodeProvider({ server: "s", redirectUrl: "http://localhost:3000/cb" });
    expect(() => provider.saveDiscoveryState(state("https://evil.example", {}, ISSUER))).toThrow(
      McpServerError,
    );
    expect(provider.authorizationServer).toBeUndefined();
    provider.saveDiscoveryState(state(ISSUER));
    expect(provider.authorizationServer?.authorizationServerMetadata?.issuer).toBe(ISSUER);
  });
});

describe("application_type (SEP-837)", () => {
  it("is native for loopback and custom-scheme redirects, web otherwise", () => {
    expect(
      [
        "http://localhost:3000/cb",
        "http://127.0.0.1/cb",
        "http://[::1]:9/cb",
        "com.example.app:/cb",
        "https://app.example/cb",
      ].map(applicationTypeOf),
    ).toEqual(["native", "native", "native", "native", "web"]);
  });

  it("is in the metadata the provider registers with", () => {
    const provider = new AuthorizationCodeProvider({ server: "s", redirectUrl: "https://app.example/cb" });
    expect(provider.clientMetadata).toMatchObject({
      application_type: "web",
      redirect_uris: ["https://app.example/cb"],
    });
  });
});
