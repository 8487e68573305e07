import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { CoreToolGroups } from "./core-tool-groups.js";
import { ToolGroup } from "./tool-group.js";
import { resolveToolGroup, ToolGroupRegistry } from "./tool-group-registry.js";

function tool(name: string): Tool {
  return Tool.create(name, `The ${name} tool`, async () => ToolResult.text(name));
}

const search = tool("search");
const fetchTool = tool("fetch");

function registry(): ToolGroupRegistry {
  return new ToolGroupRegistry([
    ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, [search, fetchTool]),
    ToolGroup.of(CoreToolGroups.MATH_DESCRIPTION, []),
  ]);
}

describe("ToolGroupRegistry", () => {
  it("finds groups by role and lists roles in registration order", () => {
    const groups = registry();
    expect(groups.get("web")?.metadata.role).toBe("web");
    expect(groups.get("maps")).toBeUndefined();
    expect(groups.roles()).toEqual(["web", "math"]);
    expect(groups.groups()).toHaveLength(2);
  });

  it("accepts registering the same group twice", () => {
    const group = ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, []);
    expect(new ToolGroupRegistry([group]).register(group).roles()).toEqual(["web"]);
  });

  it("refuses a different group with a registered role", () => {
    expect(() => registry().register(ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, []))).toThrow(
      ConfigurationError,
    );
  });
});

describe("resolveToolGroup", () => {
  it("returns the tools of the group with the role", async () => {
    expect(await resolveToolGroup(registry(), { role: "web" })).toEqual([search, fetchTool]);
  });

  it("fails on an unknown role, naming it and listing the available roles", async () => {
    const failure = resolveToolGroup(registry(), { role: "maps" });
    await expect(failure).rejects.toThrow(ConfigurationError);
    await expect(failure).rejects.toThrow("No tool group matching role 'maps'. Available roles: [web, math]");
  });

  it("says a required group could not be resolved", async () => {
    await expect(
      resolveToolGroup(registry(), { role: "maps", requiredToolNames: ["route"] }),
    ).rejects.toThrow(
      "Required tool group with role='maps' could not be resolved: No tool group matching role 'maps'",
    );
  });

  it("says a required group has no tools", async () => {
    await expect(resolveToolGroup(registry(), { role: "math", requiredToolNames: ["add"] })).rejects.toThrow(
      "Required tool group with role='math' has no tools; required: [add]",
    );
  });

  it("names the missing required tools and the available ones", async () => {
    await expect(
      resolveToolGroup(registry(), { role: "web", requiredToolNames: ["search", "crawl", "scrape"] }),
    ).rejects.toThrow(
      "Tool group with role='web' is missing required tools: [crawl, scrape]. Available: [search, fetch]",
    );
  });

  it("accepts a group offering every required tool", async () => {
    expect(await resolveToolGroup(registry(), { role: "web", requiredToolNames: ["fetch"] })).toHaveLength(2);
  });

  it("turns a failed load into a configuration error with the cause, and loads again next time", async () => {
    let calls = 0;
    const flaky = ToolGroup.of(CoreToolGroups.GITHUB_DESCRIPTION, () => {
      calls += 1;
      if (calls === 1) throw new Error("connection refused");
      return [tool("create_issue")];
    });
    const groups = new ToolGroupRegistry([flaky]);
    const failure = resolveToolGroup(groups, { role: "github" });
    await expect(failure).rejects.toThrow(
      "Tool group with role='github' could not be resolved: Tool group 'github' failed to load its tools: connection refused",
    );
    const error = await failure.catch((caught: unknown) => caught);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(await resolveToolGroup(groups, { role: "github" })).toHaveLength(1);
  });

  it("prefixes a failed load of a required group as the specification does", async () => {
    const broken = ToolGroup.of(CoreToolGroups.GITHUB_DESCRIPTION, () => {
      throw new Error("boom");
    });
    await expect(
      resolveToolGroup(new ToolGroupRegistry([broken]), { role: "github", requiredToolNames: ["x"] }),
    ).rejects.toThrow(/^Required tool group with role='github' could not be resolved: .*boom/);
  });
});
