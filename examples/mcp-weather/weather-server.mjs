// The weather MCP server the mcp-weather example names in its config file:
// written with the MCP SDK v2's McpServer, spoken to over stdio in either
// protocol revision (2026-07-28 `server/discover` or 2025-11-25 `initialize`,
// whichever the client opens with). Offline: its forecasts are made up from
// the city's name.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const SKIES = ["Sunny", "Partly cloudy", "Light rain", "Overcast", "Windy", "Clear"];

function seed(text) {
  let hash = 0;
  for (const char of text.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash;
}

function weatherServer() {
  const server = new McpServer({ name: "example-weather", version: "1.0.0" });
  server.registerTool(
    "weather_forecast",
    {
      description: "Today's forecast for a city: sky and temperature",
      inputSchema: z.object({ city: z.string().describe("The city, e.g. Lisbon") }),
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
    { description: "Weather warnings in force for a city", inputSchema: z.object({ city: z.string() }) },
    async ({ city }) => ({ content: [{ type: "text", text: `No warnings in force for ${city}.` }] }),
  );
  server.registerTool(
    "server_time",
    { description: "The server's clock (not a weather tool)" },
    async () => ({
      content: [{ type: "text", text: new Date().toISOString() }],
    }),
  );
  return server;
}

serveStdio(weatherServer);
