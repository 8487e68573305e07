import { describe, expect, it } from "vitest";
import { CoreToolGroups } from "./core-tool-groups.js";

describe("CoreToolGroups", () => {
  it("names the well-known roles", () => {
    expect([
      CoreToolGroups.WEB,
      CoreToolGroups.MATH,
      CoreToolGroups.BROWSER_AUTOMATION,
      CoreToolGroups.GITHUB,
      CoreToolGroups.MAPS,
      CoreToolGroups.RAG,
      CoreToolGroups.FILE,
    ]).toEqual(["web", "math", "browser_automation", "github", "maps", "rag", "file"]);
  });

  it("pairs each role with its description", () => {
    expect(CoreToolGroups.WEB_DESCRIPTION).toEqual({
      role: "web",
      description: "Tools for web search and scraping",
    });
    expect(CoreToolGroups.BROWSER_AUTOMATION_DESCRIPTION.role).toBe(CoreToolGroups.BROWSER_AUTOMATION);
  });
});
