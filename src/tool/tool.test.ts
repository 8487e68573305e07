import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { AmbientProcess } from "./ambient-process.js";
import { ArtifactSinkingTool } from "./artifact-sinking-tool.js";
import { InputSchema } from "./input-schema.js";
import { ListSink } from "./list-sink.js";
import { llmTool } from "./llm-tool.js";
import { OneShotPerLoopTool } from "./one-shot-per-loop-tool.js";
import { Param } from "./param.js";
import { Tool, type ToolCallOptions } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult } from "./tool-result.js";

const weatherSchema = InputSchema.of(
  Param.string("city", "City name"),
  Param.string("units", "Units", { required: false, enumValues: ["celsius", "fahrenheit"] }),
);

describe("Tool.create", () => {
  it("makes a tool without parameters", async () => {
    const greet = Tool.create("greet", "Greets the user", () => ToolResult.text("Hello!"));
    expect(greet.definition.inputSchema.toJsonSchema()).toBe('{"type":"object","properties":{}}');
    expect(greet.metadata).toBe(ToolMetadata.DEFAULT);
    expect(await greet.call("")).toEqual(ToolResult.text("Hello!"));
  });

  it("makes a tool with an input schema", () => {
    const weather = Tool.create("get_weather", "Get current weather for a city", weatherSchema, () =>
      ToolResult.text("sunny"),
    );
    expect(weather.definition.name).toBe("get_weather");
    expect(weather.definition.inputSchema.parameters).toHaveLength(2);
  });

  it("makes a tool with metadata", () => {
    const lookup = Tool.create("lookup", "Looks up", ToolMetadata.create({ returnDirect: true }), () =>
      ToolResult.text("Direct result"),
    );
    expect(lookup.metadata.returnDirect).toBe(true);
  });

  it("hands the raw input and the context to the handler", async () => {
    const echo = Tool.create("echo", "Echo", (input, context) =>
      ToolResult.text(`${input}/${context.get("k")}`),
    );
    expect((await echo.call('{"a":1}', ToolCallContext.of({ k: "v" }))).content).toBe('{"a":1}/v');
  });

  it("gives the handler ToolCallContext.EMPTY when no context is passed", async () => {
    let seen: ToolCallContext | undefined;
    await Tool.create("t", "T", (_input, context) => {
      seen = context;
      return ToolResult.text("");
    }).call("{}");
    expect(seen).toBe(ToolCallContext.EMPTY);
  });

  it("rejects an invalid name, naming the tool", () => {
    expect(() => Tool.create("bad name!", "Bad", () => ToolResult.text(""))).toThrow(
      /Invalid tool name 'bad name!'/,
    );
  });

  it("lets a handler's error propagate to the caller (the loop answers it in-band)", async () => {
    const failing = Tool.create("fail", "Fails", () => {
      throw new Error("disk full");
    });
    const rejecting = Tool.create("reject", "Rejects", async () => {
      throw new Error("timeout");
    });
    await expect(failing.call("{}")).rejects.toThrow("disk full");
    await expect(rejecting.withNote("n").call("{}")).rejects.toThrow("timeout");
  });

  it("rejects a schema given without a handler", () => {
    expect(() => (Tool.create as (...args: unknown[]) => Tool)("t", "T", weatherSchema)).toThrow(
      ConfigurationError,
    );
  });
});

describe("Tool.of", () => {
  it("makes a tool with schema, metadata and a context-aware handler", async () => {
    const search = Tool.of(
      "search",
      "Search within tenant scope",
      InputSchema.of(Tool.Parameter.string("query", "Search query")),
      ToolMetadata.DEFAULT,
      (input, context) => ToolResult.text(`${JSON.parse(input).query}@${context.get("tenantId")}`),
    );
    expect((await search.call('{"query":"q"}', ToolCallContext.of({ tenantId: "acme" }))).content).toBe(
      "q@acme",
    );
  });
});

describe("Tool.Parameter, Tool.Result, Tool.InputSchema, Tool.Metadata", () => {
  it("let the chapter's nested names build a tool as written", async () => {
    const tool = Tool.create(
      "calculator",
      "Performs calculations",
      Tool.InputSchema.of(Tool.Parameter.integer("x", "Number")),
      (input) => Tool.Result.text(`x=${JSON.parse(input).x}`),
    );
    expect(tool.definition.inputSchema.toJsonSchema()).toBe(
      '{"type":"object","properties":{"x":{"type":"integer","description":"Number"}},"required":["x"]}',
    );
    expect(await tool.call('{"x":2}')).toEqual(ToolResult.text("x=2"));
    expect(Tool.Metadata.create({ returnDirect: true }).returnDirect).toBe(true);
  });
});

describe("Tool.isTool", () => {
  it("recognises tools and rejects other values", () => {
    expect(Tool.isTool(Tool.create("t", "T", () => ToolResult.text("")))).toBe(true);
    expect(Tool.isTool({ call: () => undefined })).toBe(false);
    expect(Tool.isTool(null)).toBe(false);
  });
});

describe("Tool.sinkArtifacts", () => {
  it("wraps the tool in an ArtifactSinkingTool sinking the type's artifacts", async () => {
    const sink = new ListSink();
    const tool = Tool.create("words", "Words", () => ToolResult.withArtifact("w", ["a", 1, "b"]));
    const wrapped = Tool.sinkArtifacts(tool, String, sink, { transform: (word) => word.toUpperCase() });
    expect(wrapped).toBeInstanceOf(ArtifactSinkingTool);
    await wrapped.call("{}");
    expect(sink.items()).toEqual(["A", "B"]);
  });
});

describe("Tool.publishToBlackboard", () => {
  const producing = (artifact: unknown) =>
    Tool.create("p", "P", () => ToolResult.withArtifact("done", artifact));

  function runInProcess<T>(fn: () => Promise<T>) {
    const added: unknown[] = [];
    const process = { id: "p1", blackboard: { add: (value: unknown) => added.push(value) } };
    return AmbientProcess.run(process, fn).then(() => added);
  }

  it("publishes every artifact, a list element by element, when no type is given", async () => {
    const added = await runInProcess(() => Tool.publishToBlackboard(producing(["x", 2])).call("{}"));
    expect(added).toEqual(["x", 2]);
  });

  it("publishes only the type's artifacts that pass the filter", async () => {
    const tool = Tool.publishToBlackboard(producing(["yes", "no", "yes2", 3]), String, {
      filter: (value) => value.startsWith("yes"),
    });
    expect(await runInProcess(() => tool.call("{}"))).toEqual(["yes", "yes2"]);
  });

  it("fails outside an agent process", async () => {
    await expect(Tool.publishToBlackboard(producing("x")).call("{}")).rejects.toThrow(
      /No AgentProcess available for BlackboardSink/,
    );
  });
});

class TenantTools {
  @llmTool({ description: "Looks up a customer", input: z.object({ customerId: z.number() }) })
  lookupCustomer({ customerId }: { customerId: number }, context: ToolCallContext) {
    return { customerId, tenant: context.get("tenantId"), auth: context.get("authToken") };
  }
}

describe("ToolCallContext propagation", () => {
  const context = ToolCallContext.of({
    [ToolCallContext.LOOP_ID_KEY]: "loop-1",
    tenantId: "acme",
    authToken: "xyz",
  });

  it("reaches a handler through withNote, sinkArtifacts and OneShotPerLoopTool", async () => {
    const seen: ToolCallContext[] = [];
    const base = Tool.create("search", "Search", (_input, received) => {
      seen.push(received);
      return ToolResult.withArtifact("hit", "document");
    });
    const sink = new ListSink();
    const stacked = new OneShotPerLoopTool(
      Tool.sinkArtifacts(base.withNote("Tenant scoped"), String, sink),
      "Go on.",
    );
    const result = await stacked.call("{}", context);
    expect(seen).toEqual([context]);
    expect(result.content).toBe("hit");
    expect(sink.items()).toEqual(["document"]);
    expect(stacked.definition.description).toBe("Search. Tenant scoped");
  });

  it("reaches an @llmTool method through two decorators, and stays out of its schema", async () => {
    const [lookup] = Tool.fromInstance(new TenantTools());
    const sink = new ListSink();
    const stacked = Tool.sinkArtifacts(lookup!.withNote("Needs a tenant"), Object, sink);
    const result = await stacked.call('{"customerId": 7}', context);
    expect(result.kind).toBe("artifact");
    expect(sink.items()).toEqual([{ customerId: 7, tenant: "acme", auth: "xyz" }]);
    expect(Object.keys(stacked.definition.inputSchema.jsonSchema.properties as object)).toEqual([
      "customerId",
    ]);
  });

  it("passes the abort signal through withName, sinkArtifacts and OneShotPerLoopTool to a handler", async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const base = Tool.create("fetch", "Fetch", (_input, _context, options) => {
      seen.push(options.signal);
      return ToolResult.text("ok");
    });
    const stacked = new OneShotPerLoopTool(
      Tool.sinkArtifacts(base.withName("fetch_page"), String, new ListSink()),
      "Go on.",
    );
    const { signal } = new AbortController();
    await stacked.call("{}", context, { signal });
    expect(seen).toEqual([signal]);
  });

  it("passes the abort signal to @llmTool methods and typed tool functions", async () => {
    const seen: (AbortSignal | undefined)[] = [];
    class Fetcher {
      @llmTool({ description: "Fetches" })
      fetch(_input: unknown, _context: ToolCallContext, options: ToolCallOptions) {
        seen.push(options.signal);
        return "fetched";
      }
    }
    const typed = Tool.fromFunction("typed", "Typed", z.object({}), String, (_input, _context, options) => {
      seen.push(options.signal);
      return "typed";
    });
    const { signal } = new AbortController();
    await Tool.fromInstance(new Fetcher())[0]!.withNote("n").call("", context, { signal });
    await typed.withNote("n").call("{}", context, { signal });
    expect(seen).toEqual([signal, signal]);
  });
});
