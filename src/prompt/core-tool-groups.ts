import type { ToolGroupDescription } from "./tool-group.js";

function describe(role: string, description: string): ToolGroupDescription {
  return Object.freeze({ role, description });
}

/**
 * The roles of the well-known tool groups, with their descriptions (for
 * building groups: `ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, tools)`).
 */
export const CoreToolGroups = {
  WEB: "web",
  WEB_DESCRIPTION: describe("web", "Tools for web search and scraping"),
  RAG: "rag",
  RAG_DESCRIPTION: describe("rag", "RAG query tools"),
  MATH: "math",
  MATH_DESCRIPTION: describe("math", "Math tools: use when you need to perform calculations"),
  MAPS: "maps",
  MAPS_DESCRIPTION: describe("maps", "Mapping tools"),
  GITHUB: "github",
  GITHUB_DESCRIPTION: describe("github", "Integration with GitHub APIs"),
  BROWSER_AUTOMATION: "browser_automation",
  BROWSER_AUTOMATION_DESCRIPTION: describe("browser_automation", "Browser automation tools"),
  FILE: "file",
  FILE_DESCRIPTION: describe("file", "Tools for file and directory operations"),
} as const;
