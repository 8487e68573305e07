import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DelegatingTool } from "./abstract-tool.js";
import { ArtifactSinkingTool } from "./artifact-sinking-tool.js";
import { CompositeSink } from "./composite-sink.js";
import { ListSink } from "./list-sink.js";
import { Tool } from "./tool.js";
import { ToolCallContext } from "./tool-call-context.js";
import { ToolMetadata } from "./tool-metadata.js";
import { ToolResult } from "./tool-result.js";
import { domainType } from "./type-token.js";

const returning = (result: ToolResult) =>
  Tool.create("producer", "Produces", ToolMetadata.create({ returnDirect: true }), () => result);

class SearchResult {
  constructor(
    readonly document: string,
    readonly score: number,
  ) {}
}

describe("ArtifactSinkingTool", () => {
  it("sinks an artifact of the type and returns the result unchanged", async () => {
    const result = ToolResult.withArtifact("found", new SearchResult("doc", 0.9));
    const sink = new ListSink();
    const tool = new ArtifactSinkingTool(returning(result), SearchResult, sink);
    expect(await tool.call("{}")).toBe(result);
    expect(sink.items()).toEqual([new SearchResult("doc", 0.9)]);
  });

  it("keeps the delegate's definition and metadata and is a DelegatingTool", () => {
    const delegate = returning(ToolResult.text("x"));
    const tool = new ArtifactSinkingTool(delegate, String, new ListSink());
    expect(tool.definition).toBe(delegate.definition);
    expect(tool.metadata.returnDirect).toBe(true);
    expect(tool).toBeInstanceOf(DelegatingTool);
  });

  it("ignores text and error results", async () => {
    const sink = new ListSink();
    await new ArtifactSinkingTool(returning(ToolResult.text("t")), String, sink).call("{}");
    await new ArtifactSinkingTool(returning(ToolResult.error("e")), String, sink).call("{}");
    expect(sink.items()).toEqual([]);
  });

  it("ignores an artifact of another type", async () => {
    const sink = new ListSink();
    await new ArtifactSinkingTool(returning(ToolResult.withArtifact("n", 5)), String, sink).call("{}");
    expect(sink.items()).toEqual([]);
  });

  it("sinks a list element by element, keeping only the type", async () => {
    const sink = new ListSink();
    const artifact = ["string", 123, "another", 456];
    await new ArtifactSinkingTool(returning(ToolResult.withArtifact("mixed", artifact)), String, sink).call(
      "{}",
    );
    expect(sink.items()).toEqual(["string", "another"]);
  });

  it("sinks the elements of a Set and copes with an empty list", async () => {
    const sink = new ListSink();
    await new ArtifactSinkingTool(
      returning(ToolResult.withArtifact("s", new Set([1, 2]))),
      Number,
      sink,
    ).call("");
    await new ArtifactSinkingTool(returning(ToolResult.withArtifact("e", [])), Number, sink).call("");
    expect(sink.items()).toEqual([1, 2]);
  });

  it("filters before transforming, and only transforms accepted values", async () => {
    const sink = new ListSink();
    const transformed: string[] = [];
    const tool = new ArtifactSinkingTool(
      returning(ToolResult.withArtifact("words", ["yes", "no", "yes2"])),
      String,
      sink,
      {
        filter: (word) => word.startsWith("yes"),
        transform: (word) => {
          transformed.push(word);
          return word.length;
        },
      },
    );
    await tool.call("{}");
    expect(transformed).toEqual(["yes", "yes2"]);
    expect(sink.items()).toEqual([3, 4]);
  });

  it("matches domain types by schema", async () => {
    const Hit = domainType("Hit", z.object({ url: z.string() }));
    const sink = new ListSink();
    const artifact = [{ url: "a" }, { title: "not a hit" }];
    await new ArtifactSinkingTool(returning(ToolResult.withArtifact("hits", artifact)), Hit, sink).call("");
    expect(sink.items()).toEqual([{ url: "a" }]);
  });

  it("propagates the delegate's error and sinks nothing", async () => {
    const sink = new ListSink();
    const failing = Tool.create("failing", "Fails", () => {
      throw new Error("delegate failed");
    });
    await expect(new ArtifactSinkingTool(failing, String, sink).call("{}")).rejects.toThrow(
      "delegate failed",
    );
    expect(sink.items()).toEqual([]);
  });

  it("passes input and context to the delegate", async () => {
    const seen: string[] = [];
    const delegate = Tool.create("d", "D", (input, context) => {
      seen.push(`${input}|${context.get("tenantId")}`);
      return ToolResult.text("ok");
    });
    await new ArtifactSinkingTool(delegate, String, new ListSink()).call(
      '{"q":1}',
      ToolCallContext.of({ tenantId: "t" }),
    );
    expect(seen).toEqual(['{"q":1}|t']);
  });

  it("awaits an async sink before returning", async () => {
    const received: unknown[] = [];
    const sink = {
      accept: async (artifact: unknown) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        received.push(artifact);
      },
    };
    await new ArtifactSinkingTool(returning(ToolResult.withArtifact("a", "x")), String, sink).call("");
    expect(received).toEqual(["x"]);
  });
});

describe("Tool.sinkArtifacts with a function or any { accept }", () => {
  it("sends each artifact to a function given as the sink, awaiting it", async () => {
    const seen: unknown[] = [];
    const tool = Tool.sinkArtifacts(
      returning(ToolResult.withArtifact("found", [new SearchResult("a", 0.9), new SearchResult("b", 0.1)])),
      SearchResult,
      async (artifact) => {
        await Promise.resolve();
        seen.push(artifact);
      },
      { filter: (result) => result.score > 0.5 },
    );
    expect((await tool.call("{}")).content).toBe("found");
    expect(seen).toEqual([new SearchResult("a", 0.9)]);
  });

  it("accepts a plain object with accept, and functions inside a CompositeSink", async () => {
    const plain: unknown[] = [];
    const viaFunction: unknown[] = [];
    const sink = new CompositeSink({ accept: (artifact) => void plain.push(artifact) }, (artifact) => {
      viaFunction.push(artifact);
    });
    await Tool.sinkArtifacts(returning(ToolResult.withArtifact("x", "doc")), String, sink).call("{}");
    expect([plain, viaFunction]).toEqual([["doc"], ["doc"]]);
  });
});

describe("a function sink with a typed parameter", () => {
  it("type-checks and receives the typed artifacts", async () => {
    const scores: number[] = [];
    const tool = Tool.sinkArtifacts(
      returning(ToolResult.withArtifact("found", new SearchResult("a", 0.7))),
      SearchResult,
      (result: SearchResult) => {
        scores.push(result.score);
      },
    );
    await tool.call("{}");
    expect(scores).toEqual([0.7]);
  });
});
