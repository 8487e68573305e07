// The weather MCP server the mcp-weather example names in its config file:
// written with the MCP SDK's McpServer, spoken to over stdio. Offline: its
// forecasts are made up from the city's name.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const SKIES = ["Sunny", "Partly cloudy", "Light rain", "Overcast", "Windy", "Clear"];

function seed(text) {
  let hash = 0;
  for (const char of text.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash;
}

const server = new McpServer({ name: "example-weather", version: "1.0.0" });
server.registerTool(
  "weather_forecast",
  {
    description: "Today's forecast for a city: sky and temperature",
    inputSchema: { city: z.string().describe("The city, e.g. Lisbon") },
  },
  async ({ city }) => {
    const value = seed(city);
    const sky = SKIES[value % SKIES.length];
    const celsius = 8 + (value % 20);
    return {
      content: [{ type: "text", text: `${city}: ${sky}, ${celsius}°C` }],
      structuredContent: { city, sky, celsius },
    };
  },
);
server.registerTool(
  "weather_alerts",
  { description: "Weather warnings in force for a city", inputSchema: { city: z.string() } },
  async ({ city }) => ({ content: [{ type: "text", text: `No warnings in force for ${city}.` }] }),
);
server.registerTool("server_time", { description: "The server's clock (not a weather tool)" }, async () => ({
  content: [{ type: "text", text: new Date().toISOString() }],
}));
await server.connect(new StdioServerTransport());
