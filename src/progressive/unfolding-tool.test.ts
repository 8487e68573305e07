import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolObject } from "../prompt/tool-object.js";
import { InputSchema } from "../tool/input-schema.js";
import { llmTool } from "../tool/llm-tool.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { isNestedTool, Unfolding } from "../tool/unfolding.js";
import { ProgressiveTool } from "./progressive-tool.js";
import { UnfoldingTool } from "./unfolding-tool.js";

/** What the latest call of `tool` with `input`, outside any loop, unfolded. */
function unfoldedBy(tool: Tool, input: string): Unfolding | undefined {
  return Unfolding.ofCall(tool, { input, context: ToolCallContext.EMPTY, definition: tool.definition });
}

/** Calls `tool` with `input` outside any loop and returns what it unfolded. */
async function unfold(tool: Tool, input: string): Promise<Unfolding | undefined> {
  await tool.call(input);
  return unfoldedBy(tool, input);
}

const PREAMBLE =
  "You MUST call one of these tools to complete the user's request. Do NOT respond with text — call a tool.";

function leaf(name: string, received: string[] = []): Tool {
  return Tool.create(name, `The ${name} tool`, (input) => {
    received.push(input);
    return ToolResult.text(`${name} ran`);
  });
}

function names(tools: readonly Tool[] | undefined): string[] {
  return (tools ?? []).map((tool) => tool.definition.name);
}

describe("UnfoldingTool.of", () => {
  it("has an empty input schema and default metadata", () => {
    const facade = UnfoldingTool.of("tools", "Tools", [leaf("tool_a")]);
    expect(facade.definition.inputSchema.jsonSchema).toEqual({ type: "object", properties: {} });
    expect(facade.metadata).toBe(ToolMetadata.DEFAULT);
    expect(facade.exclusive).toBe(false);
    expect(facade.childToolUsageNotes).toBeUndefined();
  });

  it("answers a call with the exact unfolded message", async () => {
    const facade = UnfoldingTool.of("tools", "Tools", [leaf("tool_a"), leaf("tool_b")]);
    const result = await facade.call("{}");
    expect(result).toMatchObject({
      kind: "text",
      content: `Tools now available: tool_a, tool_b. ${PREAMBLE}`,
    });
  });

  it("appends the usage notes after a blank line", async () => {
    const notes = "Try semantic search first for meaning; exact search for names.";
    const facade = UnfoldingTool.of("search", "Search", [leaf("vector_search")], {
      childToolUsageNotes: notes,
    });
    const result = await facade.call("{}");
    expect(result.content).toBe(`Tools now available: vector_search. ${PREAMBLE}\n\n${notes}`);
  });

  it("leaves blank usage notes out", async () => {
    const facade = UnfoldingTool.of("search", "Search", [leaf("vector_search")], {
      childToolUsageNotes: "  ",
    });
    expect(facade.childToolUsageNotes).toBeUndefined();
    expect((await facade.call("")).content).toBe(`Tools now available: vector_search. ${PREAMBLE}`);
  });

  it("attaches an unfolding: the inner tools then the context tool, and a guide with the facade's definition", async () => {
    const facade = UnfoldingTool.of("database_operations", "Database operations", [
      leaf("query_table"),
      leaf("insert_record"),
    ]);
    const unfolding = await unfold(facade, "{}");
    expect(names(unfolding?.tools)).toEqual(["query_table", "insert_record", "database_operations_context"]);
    expect(unfolding?.guide?.definition).toBe(facade.definition);
    expect(unfolding?.exclusive).toBe(false);
  });

  it("marks the unfolding exclusive when asked", async () => {
    const facade = UnfoldingTool.of("personality", "Personality", [leaf("formal")], { exclusive: true });
    expect((await unfold(facade, "{}"))?.exclusive).toBe(true);
  });

  it("accepts the deprecated removeOnInvoke and keeps it without changing behaviour", async () => {
    const facade = UnfoldingTool.of("tools", "Tools", [leaf("tool_a")], { removeOnInvoke: false });
    const usual = UnfoldingTool.of("tools", "Tools", [leaf("tool_a")]);
    expect(facade.removeOnInvoke).toBe(false);
    expect(usual.removeOnInvoke).toBe(true);
    const [ignored, normal] = [await unfold(facade, "{}"), await unfold(usual, "{}")];
    expect(ignored?.guide?.definition.name).toBe("tools");
    expect(names(ignored?.tools)).toEqual(names(normal?.tools));
  });

  it("is a nested and progressive tool whose inner tools do not depend on the process", () => {
    const inner = [leaf("tool_a")];
    const facade = UnfoldingTool.of("tools", "Tools", inner);
    expect(isNestedTool(facade)).toBe(true);
    expect(ProgressiveTool.isProgressiveTool(facade)).toBe(true);
    expect(facade.innerTools).toEqual(inner);
    expect(facade.innerToolsFor({ id: "p1", blackboard: { add: () => undefined } })).toEqual(inner);
    expect(ProgressiveTool.isProgressiveTool(leaf("plain"))).toBe(false);
  });

  it("counts the same tool listed twice once", () => {
    const a = leaf("tool_a");
    expect(names(UnfoldingTool.of("tools", "Tools", [a, a]).innerTools)).toEqual(["tool_a"]);
  });

  it("refuses two different inner tools with one name", () => {
    expect(() => UnfoldingTool.of("tools", "Tools", [leaf("tool_a"), leaf("tool_a")])).toThrow(
      /two different inner tools named 'tool_a'/,
    );
  });

  it("refuses an invalid facade name", () => {
    expect(() => UnfoldingTool.of("my tools", "Tools", [])).toThrow(ConfigurationError);
  });

  it("changes nothing when it has no inner tools", async () => {
    const facade = UnfoldingTool.of("empty", "Nothing here", []);
    const result = await facade.call("{}");
    expect(result.content).toContain("No tools matched this input to 'empty'");
    expect(unfoldedBy(facade, "{}")).toBeUndefined();
  });
});

describe("UnfoldingTool.byCategory", () => {
  const query = leaf("query");
  const insert = leaf("insert");
  const remove = leaf("delete");
  const facade = UnfoldingTool.byCategory("db", "Database", { read: [query], write: [insert, remove] });

  it("has one required category parameter whose enum lists the categories in order", () => {
    expect(facade.definition.inputSchema.jsonSchema).toEqual({
      type: "object",
      properties: {
        category: {
          type: "string",
          description: "Category to access. Available: read, write",
          enum: ["read", "write"],
        },
      },
      required: ["category"],
    });
  });

  it("unfolds into the chosen category's tools", async () => {
    const unfolding = await unfold(facade, '{"category": "write"}');
    expect(names(unfolding?.tools)).toEqual(["insert", "delete", "db_context"]);
  });

  it("selects all tools for an unknown, missing, blank or unparseable category", async () => {
    for (const input of ['{"category": "admin"}', "{}", '{"category": " "}', "not json", ""]) {
      expect(names(await facade.selectTools(input))).toEqual(["query", "insert", "delete"]);
    }
  });

  it("matches a category regardless of case and surrounding spaces", async () => {
    expect(names(await facade.selectTools('{"category": " Read "}'))).toEqual(["query"]);
  });

  it("takes a Map and a custom parameter name", async () => {
    const mapped = UnfoldingTool.byCategory("files", "Files", new Map([["read", [query]]]), {
      categoryParameter: "area",
    });
    expect(mapped.definition.inputSchema.jsonSchema.required).toEqual(["area"]);
    expect(names(await mapped.selectTools('{"area": "read"}'))).toEqual(["query"]);
  });

  it("lists a tool shared by two categories once among the inner tools", () => {
    const shared = UnfoldingTool.byCategory("db", "Database", { read: [query], write: [insert, query] });
    expect(names(shared.innerTools)).toEqual(["query", "insert"]);
  });

  it("refuses an empty category map and a blank parameter name", () => {
    expect(() => UnfoldingTool.byCategory("db", "Database", {})).toThrow(/at least one category/);
    expect(() =>
      UnfoldingTool.byCategory("db", "Database", { read: [query] }, { categoryParameter: " " }),
    ).toThrow(/must not be blank/);
  });
});

describe("UnfoldingTool.selectable", () => {
  const basic = leaf("basic_op");
  const advanced = leaf("advanced_op");
  const admin = leaf("admin_op");
  const all = [basic, advanced, admin];
  const permissionBased = UnfoldingTool.selectable(
    "api_operations",
    "API operations. Pass 'accessLevel': 'basic', 'advanced', or 'admin'.",
    all,
    InputSchema.of(
      Param.string("accessLevel", "Access level for operations", {
        enumValues: ["basic", "advanced", "admin"],
      }),
    ),
    (input) => {
      try {
        const level = (JSON.parse(input) as { accessLevel?: string }).accessLevel;
        if (level === "advanced") return [basic, advanced];
        if (level === "admin") return all;
        return [basic];
      } catch {
        return [basic];
      }
    },
  );

  it("unfolds into what the selector returns, and says so", async () => {
    const result = await permissionBased.call('{"accessLevel": "advanced"}');
    expect(result.content).toMatch(/^Tools now available: basic_op, advanced_op\./);
    expect(names(unfoldedBy(permissionBased, '{"accessLevel": "advanced"}')?.tools)).toEqual([
      "basic_op",
      "advanced_op",
      "api_operations_context",
    ]);
  });

  it("keeps the given input schema", () => {
    expect(permissionBased.definition.inputSchema.jsonSchema.required).toEqual(["accessLevel"]);
    expect(permissionBased.selects).toBe(true);
  });

  it("accepts a zod schema", () => {
    const facade = UnfoldingTool.selectable("db", "Db", [], z.object({ connection: z.string() }), () => []);
    expect(facade.definition.inputSchema.jsonSchema.required).toEqual(["connection"]);
  });

  it("names the facade when its zod schema cannot be turned into JSON Schema", () => {
    expect(() => UnfoldingTool.selectable("db", "Db", [], z.object({ since: z.date() }), () => [])).toThrow(
      /^The schema of UnfoldingTool 'db' cannot be turned into JSON Schema/,
    );
  });

  it("passes the context and the abort signal to the selector", async () => {
    const seen: { tenant?: unknown; signal?: AbortSignal } = {};
    const facade = UnfoldingTool.selectable(
      "db",
      "Db",
      [],
      InputSchema.empty(),
      (_input, context, options) => {
        seen.tenant = context.get("tenant");
        if (options.signal) seen.signal = options.signal;
        return [leaf("query")];
      },
    );
    const { signal } = new AbortController();
    await facade.call("{}", ToolCallContext.of({ tenant: "acme" }), { signal });
    expect(seen).toEqual({ tenant: "acme", signal });
  });

  it("changes nothing when the selector returns nothing", async () => {
    for (const selection of [[], undefined, null]) {
      const facade = UnfoldingTool.selectable("db", "Db", [], InputSchema.empty(), () => selection);
      const result = await facade.call("{}");
      expect(result.content).toBe(
        "No tools matched this input to 'db', so the available tools are unchanged. Call 'db' again with different arguments, or use one of the tools you already have.",
      );
      expect(unfoldedBy(facade, "{}")).toBeUndefined();
    }
  });

  it("runs the selector once per call", async () => {
    let runs = 0;
    const facade = UnfoldingTool.selectable("db", "Db", [], InputSchema.empty(), async () => {
      runs += 1;
      return [leaf("query")];
    });
    await facade.call("{}");
    expect(runs).toBe(1);
  });

  it("lets a selector's error reach the caller (the loop answers it in-band)", async () => {
    const facade = UnfoldingTool.selectable("db", "Db", [], InputSchema.empty(), () => {
      throw new Error("no such database");
    });
    await expect(facade.call("{}")).rejects.toThrow("no such database");
  });
});

describe("UnfoldingTool.withTools", () => {
  it("appends tools and keeps name, description, notes, exclusive and removeOnInvoke", async () => {
    const facade = UnfoldingTool.of("ws", "Workspace", [leaf("t1")], {
      childToolUsageNotes: "Use t1 first.",
      exclusive: true,
      removeOnInvoke: false,
    }).withTools(leaf("t2"), leaf("t3"));
    expect(names(facade.innerTools)).toEqual(["t1", "t2", "t3"]);
    expect(facade.definition.name).toBe("ws");
    expect(facade.definition.description).toBe("Workspace");
    expect(facade.childToolUsageNotes).toBe("Use t1 first.");
    expect(facade.exclusive).toBe(true);
    expect(facade.removeOnInvoke).toBe(false);
  });

  it("keeps a category facade's schema and selector, offering the new tools with every category", async () => {
    const facade = UnfoldingTool.byCategory("db", "Db", {
      read: [leaf("query")],
      write: [leaf("insert")],
    }).withTools(leaf("help"));
    expect(facade.definition.inputSchema.jsonSchema.required).toEqual(["category"]);
    expect(names(await facade.selectTools('{"category": "read"}'))).toEqual(["query", "help"]);
  });

  it("keeps a selector's empty selection empty, so it still changes nothing", async () => {
    for (const selection of [[], undefined, null]) {
      const facade = UnfoldingTool.selectable("db", "Db", [], InputSchema.empty(), () => selection).withTools(
        leaf("help"),
      );
      const result = await facade.call("{}");
      expect(result.content).toMatch(/^No tools matched this input to 'db'/);
      expect(unfoldedBy(facade, "{}")).toBeUndefined();
    }
  });
});

describe("UnfoldingTool.withToolObject", () => {
  class FileOperations {
    @llmTool({ description: "Read a file", input: z.object({ path: z.string() }) })
    readFile({ path }: { path: string }) {
      return `read ${path}`;
    }
  }

  it("appends the object's @llmTool methods", () => {
    const facade = UnfoldingTool.of("ws", "Workspace", [leaf("base")]).withToolObject(new FileOperations());
    expect(names(facade.innerTools)).toEqual(["base", "readFile"]);
  });

  it("appends a ToolObject's renamed tools and a plain tool", () => {
    const facade = UnfoldingTool.of("ws", "Workspace", [])
      .withToolObject(new ToolObject(new FileOperations()).withPrefix("fs_"))
      .withToolObject(leaf("search"));
    expect(names(facade.innerTools)).toEqual(["fs_readFile", "search"]);
  });

  it("refuses an object without tools", () => {
    expect(() => UnfoldingTool.of("ws", "Workspace", []).withToolObject({})).toThrow(ConfigurationError);
  });
});

describe("UnfoldingTool.fromToolObject", () => {
  class WriteTools {
    @llmTool({ description: "Write a file" })
    writeFile() {
      return "written";
    }
  }

  it("wraps an object's @llmTool methods in a facade with the given name and description", () => {
    const facade = UnfoldingTool.fromToolObject(
      new WriteTools(),
      "file_write_tools",
      "Tools for writing files.",
      {
        childToolUsageNotes: "Write carefully.",
      },
    );
    expect(facade.definition.name).toBe("file_write_tools");
    expect(names(facade.innerTools)).toEqual(["writeFile"]);
    expect(facade.childToolUsageNotes).toBe("Write carefully.");
  });

  it("throws for an object without @llmTool methods", () => {
    expect(() => UnfoldingTool.fromToolObject({}, "x", "X")).toThrow(/No methods annotated/);
  });
});

describe("UnfoldingTool.withNote", () => {
  it("adds no second period after a description that ends with one", () => {
    expect(UnfoldingTool.of("db", "Database.", []).withNote("Query first").definition.description).toBe(
      "Database. Query first",
    );
  });
});

describe("UnfoldingTool renaming", () => {
  it("withName, withDescription, withNote and withDefinitionMetadata give facades that unfold under the new definition", async () => {
    const facade = UnfoldingTool.of("tools", "Tools", [leaf("a")])
      .withName("kit")
      .withDescription("Kit")
      .withNote("Call me")
      .withDefinitionMetadata({ team: "x" });
    expect(UnfoldingTool.isUnfoldingTool(facade)).toBe(true);
    expect(facade.definition).toMatchObject({
      name: "kit",
      description: "Kit. Call me",
      metadata: { team: "x" },
    });
    const unfolding = await unfold(facade, "{}");
    expect(unfolding?.guide?.definition).toBe(facade.definition);
    expect(names(unfolding?.tools)).toEqual(["a", "kit_context"]);
  });
});

describe("UnfoldingTool renaming a category facade", () => {
  it("keeps the category schema and selection under the new name", async () => {
    const facade = UnfoldingTool.byCategory("files", "Files", {
      read: [leaf("read_file")],
      write: [leaf("write_file")],
    }).withName("documents");
    expect(facade.definition.inputSchema.jsonSchema.required).toEqual(["category"]);
    const unfolding = await unfold(facade, '{"category":"write"}');
    expect(names(unfolding?.tools)).toEqual(["write_file", "documents_context"]);
  });
});

describe("UnfoldingTool.isUnfoldingTool", () => {
  it("is true for facades only", () => {
    expect(UnfoldingTool.isUnfoldingTool(UnfoldingTool.of("t", "T", []))).toBe(true);
    expect(UnfoldingTool.isUnfoldingTool(leaf("t"))).toBe(false);
    expect(UnfoldingTool.isUnfoldingTool(undefined)).toBe(false);
    expect(UnfoldingTool.isUnfoldingTool(null)).toBe(false);
  });

  it("is true for a facade of another copy of this package, which carries the same global brand", () => {
    const fromOtherCopy = { [Symbol.for("embabel-ts.unfolding-tool")]: true };
    expect(UnfoldingTool.isUnfoldingTool(fromOtherCopy)).toBe(true);
  });
});
