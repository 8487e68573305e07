import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { UserInput } from "../user-input.js";
import { example, MCP_WEATHER_CONFIG, type WeatherReport, WeatherReporter, weatherScript } from "./index.js";

describe("WeatherReporter (on its recorded script, tools from the MCP server in its config file)", () => {
  it("uses the weather tool group the config maps to the server's tools, and reports from their answers", async () => {
    const config = JSON.parse(readFileSync(MCP_WEATHER_CONFIG, "utf8"));
    const model = new ScriptedModel(weatherScript());
    const platform = AgentPlatform.create({
      models: { default: model },
      mcpServers: config.mcpServers,
      toolGroups: config.toolGroups,
      mcpConfig: { baseDir: dirname(MCP_WEATHER_CONFIG) },
    });
    try {
      const process = await platform.runAgent(
        platform.deploy(WeatherReporter),
        UserInput.create({ content: "What's the weather like in Lisbon?" }),
      );
      expect(process.status).toBe("completed");
      expect(model.toolNamesPerRequest).toEqual([
        ["weather_forecast", "weather_alerts"],
        ["weather_forecast", "weather_alerts"],
      ]);
      const report = process.result as WeatherReport;
      expect(report.city).toBe("Lisbon");
      expect(report.summary).toMatch(/^Lisbon: .+, \d+°C\. No warnings in force for Lisbon\.$/);
    } finally {
      await platform.close();
    }
    expect(platform.mcpClients.get("weather")?.pid).toBeUndefined();
  });

  it("is described for the CLI, with its config file", () => {
    expect(example.name).toBe("mcp-weather");
    expect(example.configFile).toBe(MCP_WEATHER_CONFIG);
  });
});
