import { describe, expect, it } from "vitest";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { CoreToolGroups } from "./core-tool-groups.js";
import { ToolGroup, ToolGroupPermission } from "./tool-group.js";

function tool(name: string): Tool {
  return Tool.create(name, `The ${name} tool`, async () => ToolResult.text(name));
}

describe("ToolGroup", () => {
  it("fills metadata defaults: name = role, provider embabel, version 0.1.0, no permissions", () => {
    const group = ToolGroup.of(CoreToolGroups.MATH_DESCRIPTION, []);
    expect(group.metadata).toEqual({
      role: "math",
      description: "Math tools: use when you need to perform calculations",
      name: "math",
      provider: "embabel",
      version: "0.1.0",
      permissions: [],
    });
  });

  it("keeps given name, provider and permissions", () => {
    const group = ToolGroup.of(CoreToolGroups.WEB_DESCRIPTION, [], {
      name: "docker-web",
      provider: "Docker",
      permissions: [ToolGroupPermission.INTERNET_ACCESS],
    });
    expect(group.metadata.name).toBe("docker-web");
    expect(group.metadata.provider).toBe("Docker");
    expect(group.metadata.permissions).toEqual(["INTERNET_ACCESS"]);
  });

  it("returns its fixed tools in order", async () => {
    const a = tool("a");
    const b = tool("b");
    const group = ToolGroup.of({ role: "x", description: "x" }, [a, b]);
    expect(await group.tools()).toEqual([a, b]);
  });

  it("calls a loader once when it succeeds", async () => {
    let calls = 0;
    const group = ToolGroup.of({ role: "x", description: "x" }, async () => {
      calls += 1;
      return [tool("a")];
    });
    const [first, second] = await Promise.all([group.tools(), group.tools()]);
    expect(first).toBe(second);
    await group.tools();
    expect(calls).toBe(1);
  });

  it("retries a loader that failed on the next use", async () => {
    let calls = 0;
    const group = ToolGroup.of({ role: "x", description: "x" }, () => {
      calls += 1;
      if (calls === 1) throw new Error("server down");
      return [tool("a")];
    });
    await expect(group.tools()).rejects.toThrow("server down");
    expect((await group.tools()).map((t) => t.definition.name)).toEqual(["a"]);
    expect(calls).toBe(2);
  });

  it("recognises tool groups and rejects look-alikes", () => {
    expect(ToolGroup.isToolGroup(ToolGroup.of({ role: "x", description: "x" }, []))).toBe(true);
    expect(ToolGroup.isToolGroup({ role: "x" })).toBe(false);
    expect(ToolGroup.isToolGroup(null)).toBe(false);
  });
});

describe("ToolGroupPermission", () => {
  it("spells the permissions as the specification does", () => {
    expect(ToolGroupPermission).toEqual({ HOST_ACCESS: "HOST_ACCESS", INTERNET_ACCESS: "INTERNET_ACCESS" });
  });
});
