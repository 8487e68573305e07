import { describe, expect, it } from "vitest";
import { isLoopbackHost, mcpHttpGuard } from "./mcp-http-guard.js";

describe("isLoopbackHost", () => {
  it("knows this machine's names and addresses, and nothing else", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"]) {
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: true });
    }
    for (const host of [
      "0.0.0.0",
      "::",
      "192.168.1.5",
      "localhost.example.com",
      "128.0.0.1",
      "127.0.0.1.nip.io",
    ]) {
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: false });
    }
  });
});

describe("mcpHttpGuard", () => {
  it("accepts a concrete listening address as a Host, but not a wildcard one", () => {
    const lan = mcpHttpGuard({ port: 8765, listenHost: "192.168.1.5", token: "t" });
    expect(lan({ host: "192.168.1.5:8765", authorization: "Bearer t" })).toBeUndefined();
    const v6 = mcpHttpGuard({ port: 8765, listenHost: "fe80::1", token: "t" });
    expect(v6({ host: "[fe80::1]:8765", authorization: "Bearer t" })).toBeUndefined();
    const any = mcpHttpGuard({ port: 8765, listenHost: "0.0.0.0", token: "t" });
    expect(any({ host: "0.0.0.0:8765", authorization: "Bearer t" })?.status).toBe(403);
    expect(any({ host: "127.0.0.1:8765", authorization: "Bearer t" })).toBeUndefined();
  });

  it("refuses a request with no Host at all", () => {
    expect(mcpHttpGuard({ port: 80, listenHost: "127.0.0.1" })({})?.status).toBe(403);
  });

  it("matches allowed hosts without case, and allowed origins with or without a trailing slash", () => {
    const guard = mcpHttpGuard({
      port: 3000,
      listenHost: "127.0.0.1",
      allowedHosts: ["MCP.Example.com"],
      allowedOrigins: ["https://App.example.com/"],
    });
    expect(guard({ host: "mcp.example.com:443", origin: "https://app.example.com" })).toBeUndefined();
    expect(guard({ host: "127.0.0.1:3000", origin: "https://app.example.com.evil.test" })?.status).toBe(403);
  });
});
