import { describe, expect, it } from "vitest";
import { ToolCallContext } from "../tool/tool-call-context.js";
import {
  isPureMetaConverter,
  mcpMetaOf,
  narrowedMetaConverter,
  ToolCallContextMcpMetaConverter,
} from "./tool-call-context-mcp-meta-converter.js";

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
  it("sends nothing for an empty context", () => {
    expect(mcpMetaOf(ToolCallContext.EMPTY, ToolCallContextMcpMetaConverter.passThrough())).toBeUndefined();
    expect(
      mcpMetaOf(ToolCallContext.EMPTY, ToolCallContextMcpMetaConverter.allowKeys("tenantId")),
    ).toBeUndefined();
  });

  it("sends {} for a non-empty context when nothing is left, as the reference does", () => {
    expect(mcpMetaOf(context, ToolCallContextMcpMetaConverter.noOp())).toEqual({});
    expect(mcpMetaOf(context, ToolCallContextMcpMetaConverter.allowKeys("nonExistent"))).toEqual({});
    const onlyLoop = ToolCallContext.of({ [ToolCallContext.LOOP_ID_KEY]: "loop-1" });
    expect(mcpMetaOf(onlyLoop, ToolCallContextMcpMetaConverter.passThrough())).toEqual({});
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

  it("never forwards keys in MCP's reserved namespaces (a prefix whose second label is modelcontextprotocol or mcp)", () => {
    const reserved = ToolCallContext.of({
      "io.modelcontextprotocol/related-task": { taskId: "t-9" },
      "dev.mcp/anything": 1,
      "com.example/user": "u1",
      "com.example.mcp/kept": 2,
      "mcp/kept-too": 3,
    });
    const expected = { "com.example/user": "u1", "com.example.mcp/kept": 2, "mcp/kept-too": 3 };
    expect(ToolCallContextMcpMetaConverter.passThrough()(reserved)).toEqual(expected);
    expect(mcpMetaOf(reserved, ToolCallContextMcpMetaConverter.passThrough())).toEqual(expected);
    expect(mcpMetaOf(reserved, (ctx) => ctx.toRecord())).toEqual(expected);
  });
});

describe("narrowedMetaConverter", () => {
  it("keeps only a server's allowed keys, or drops its denied ones, from whatever the converter gives", () => {
    const passThrough = ToolCallContextMcpMetaConverter.passThrough();
    expect(narrowedMetaConverter(passThrough, { allow: ["tenantId"] })(context)).toEqual({
      tenantId: "acme",
    });
    expect(narrowedMetaConverter(passThrough, { deny: ["authToken"] })(context)).toEqual({
      tenantId: "acme",
    });
    const custom = (ctx: ToolCallContext) => ({ tenant: ctx.get("tenantId"), token: ctx.get("authToken") });
    expect(narrowedMetaConverter(custom, { allow: ["tenant", "tenantId"] })(context)).toEqual({
      tenant: "acme",
    });
  });

  it("stays reusable (pure) only when the converter it narrows is", () => {
    expect(
      isPureMetaConverter(narrowedMetaConverter(ToolCallContextMcpMetaConverter.noOp(), { allow: [] })),
    ).toBe(true);
    expect(isPureMetaConverter(narrowedMetaConverter(() => ({}), { deny: [] }))).toBe(false);
  });
});
