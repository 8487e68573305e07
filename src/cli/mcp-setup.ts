import { dirname, isAbsolute, resolve } from "node:path";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { ToolGroupConfig } from "../mcp/config-tool-groups.js";
import type { AgentPlatformOptions } from "../platform/agent-platform.js";
import type { ToolGroup } from "../prompt/tool-group.js";
import { EMPTY_CONFIG, type EmbabelConfig, type LoadedConfig, loadConfig } from "./cli-config.js";
import type { ExampleDefinition } from "./example-definition.js";
import { lazySkillsToolGroups, skillDirectories } from "./skills-setup.js";

type McpOptions = Pick<AgentPlatformOptions, "mcpServers" | "toolGroups" | "mcpConfig" | "searchableAbove">;

/** `servers` with each relative stdio `cwd` made absolute against `baseDir`. */
function withAbsoluteCwd(
  servers: Readonly<Record<string, unknown>>,
  baseDir: string | undefined,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, server]) => {
      const cwd = (server as { cwd?: unknown } | null)?.cwd;
      if (typeof cwd !== "string" || isAbsolute(cwd) || cwd.includes("${")) return [name, server];
      return [name, { ...(server as object), cwd: resolve(baseDir ?? process.cwd(), cwd) }];
    }),
  );
}

/**
 * The MCP servers and tool groups a CLI platform gets: the example's own
 * config file (if it ships one), overridden by the user's config, by name;
 * and the `skills` group over the Agent Skills folders both name (loaded on
 * first use).
 */
export function mcpPlatformOptions(
  config: EmbabelConfig,
  examples: readonly ExampleDefinition[],
  env: Readonly<Record<string, string | undefined>>,
): McpOptions {
  let mcpServers: Record<string, unknown> = {};
  let toolGroups: Record<string, unknown> = {};
  for (const example of examples) {
    if (!example.configFile) continue;
    const own = loadConfig(dirname(example.configFile), example.configFile).config;
    mcpServers = { ...mcpServers, ...withAbsoluteCwd(own.mcpServers, own.baseDir) };
    toolGroups = { ...toolGroups, ...(own.toolGroups ?? {}) };
  }
  mcpServers = { ...mcpServers, ...withAbsoluteCwd(config.mcpServers, config.baseDir) };
  toolGroups = { ...toolGroups, ...(config.toolGroups ?? {}) };
  const skills = lazySkillsToolGroups(skillDirectories(config, examples, undefined, process.cwd()));
  return {
    mcpServers,
    toolGroups: { ...(toolGroups as Readonly<Record<string, ToolGroupConfig>>), ...skills } as Readonly<
      Record<string, ToolGroupConfig | ToolGroup>
    >,
    mcpConfig: { env, ...(config.baseDir ? { baseDir: config.baseDir } : {}) },
    ...(config.searchableAbove === undefined ? {} : { searchableAbove: config.searchableAbove }),
  };
}

/**
 * The config of a `--scripted` run or worker: it uses no configured model,
 * so a broken config file is reported as a note instead of stopping it.
 */
export function configForScriptedRun(cwd: string, explicitPath: string | undefined): LoadedConfig {
  try {
    return loadConfig(cwd, explicitPath);
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    return {
      config: EMPTY_CONFIG,
      path: undefined,
      notes: [`${error.message}\n(ignored: --scripted uses no configured model)`],
    };
  }
}
