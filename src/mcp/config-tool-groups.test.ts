import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { McpServerError } from "../errors/mcp-server-error.js";
import { toolGroupsFromConfig } from "./config-tool-groups.js";
import { McpClients } from "./mcp-clients.js";

const clients = McpClients.fromConfig({
  mcpServers: { ghost: { command: "/nonexistent/mcp-server-binary" } },
});

describe("toolGroupsFromConfig", () => {
  it("makes a group marked required fail when its server can't start", async () => {
    const [group] = toolGroupsFromConfig(clients, { web: { tools: ["search"], required: true } });
    await expect(group?.tools()).rejects.toSatisfy(McpServerError.isInstance);
  });

  it("refuses a required that is not true or false", () => {
    expect(() => toolGroupsFromConfig(clients, { web: { tools: ["search"], required: "yes" } })).toThrow(
      new ConfigurationError("toolGroups.web.required must be true or false."),
    );
  });
});
