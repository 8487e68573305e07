import { describe, expect, it } from "vitest";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { mcpMetaOf, ToolCallContextMcpMetaConverter } from "./tool-call-context-mcp-meta-converter.js";

const context = ToolCallContext.of({
  tenantId: "acme",
  authToken: "t-1",
  [ToolCallContext.LOOP_ID_KEY]: "loop-1",
  progressToken: 7,
});

describe("ToolCallContextMcpMetaConverter", () => {
  it("passThrough keeps every entry but the framework's own and the progress token", () => {
    expect(ToolCallContextMcpMetaConverter.passThrough()(context)).toEqual({
      tenantId: "acme",
      authToken: "t-1",
    });
    expect(ToolCallContextMcpMetaConverter.passThrough()(ToolCallContext.EMPTY)).toEqual({});
  });

  it("noOp keeps nothing", () => {
    expect(ToolCallContextMcpMetaConverter.noOp()(context)).toEqual({});
  });

  it("allowKeys keeps only the listed keys, denyKeys all but them; complementary lists agree", () => {
    const allow = ToolCallContextMcpMetaConverter.allowKeys("tenantId", "missing")(context);
    const deny = ToolCallContextMcpMetaConverter.denyKeys("authToken")(context);
    expect(allow).toEqual({ tenantId: "acme" });
    expect(deny).toEqual(allow);
    expect(ToolCallContextMcpMetaConverter.allowKeys(ToolCallContext.LOOP_ID_KEY)(context)).toEqual({});
  });
});

describe("mcpMetaOf", () => {
  it("sends nothing for an empty context, or when nothing is left", () => {
    expect(mcpMetaOf(ToolCallContext.EMPTY, ToolCallContextMcpMetaConverter.passThrough())).toBeUndefined();
    expect(mcpMetaOf(context, ToolCallContextMcpMetaConverter.noOp())).toBeUndefined();
  });

  it("drops the framework's keys even from a custom converter", () => {
    const custom = (ctx: ToolCallContext) => ({
      tenant: ctx.get("tenantId"),
      hasAuth: ctx.has("authToken"),
      [ToolCallContext.LOOP_ID_KEY]: "leak",
      "embabel.internal": 1,
    });
    expect(mcpMetaOf(context, custom)).toEqual({ tenant: "acme", hasAuth: true });
  });
});
