import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolObject } from "../prompt/tool-object.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { Unfolding } from "../tool/unfolding.js";
import { UnfoldingTool } from "./unfolding-tool.js";
import { unfoldingTools } from "./unfolding-tools.js";

/** What the latest call of `tool` with `input`, outside any loop, unfolded. */
function unfoldedBy(tool: Tool, input: string): Unfolding | undefined {
  return Unfolding.ofCall(tool, { input, context: ToolCallContext.EMPTY, definition: tool.definition });
}

/** Calls `tool` with `input` outside any loop and returns what it unfolded. */
async function unfold(tool: Tool, input: string): Promise<Unfolding | undefined> {
  await tool.call(input);
  return unfoldedBy(tool, input);
}

function names(tools: readonly Tool[] | undefined): string[] {
  return (tools ?? []).map((tool) => tool.definition.name);
}

@unfoldingTools({
  name: "database_operations",
  description: "Database operations. Invoke to see specific tools.",
})
class DatabaseTools {
  @llmTool({ description: "Execute a SQL query", input: z.object({ sql: z.string() }) })
  query({ sql }: { sql: string }) {
    return { rows: 5, sql };
  }

  @llmTool({ description: "Insert a record", input: z.object({ table: z.string() }) })
  insert({ table }: { table: string }) {
    return `inserted into ${table}`;
  }

  @llmTool({ description: "Delete a record", input: z.object({ id: z.number() }) })
  delete(_input: { id: number }): void {}
}

@unfoldingTools({
  name: "music_search",
  description: "Search music database for artists, albums, and tracks",
  childToolUsageNotes:
    "Try vector search first for semantic queries. Use text search for exact artist names.",
})
class MusicSearchTools {
  @llmTool({ description: "Semantic search using embeddings", input: z.object({ query: z.string() }) })
  vectorSearch() {
    return [];
  }

  @llmTool({ description: "Exact match text search", input: z.object({ query: z.string() }) })
  textSearch() {
    return [];
  }
}

@unfoldingTools({
  name: "file_operations",
  description: "File operations. Pass category: 'read' or 'write'.",
})
class FileTools {
  @llmTool({ description: "Read file contents", category: "read" })
  readFile() {
    return "contents";
  }

  @llmTool({ description: "List directory contents", category: "read" })
  listDir() {
    return ["a.txt"];
  }

  @llmTool({ description: "Write file contents", category: "write" })
  writeFile() {}

  @llmTool({ description: "Delete a file", category: "write" })
  deleteFile() {}
}

@unfoldingTools({ name: "mixed", description: "Mixed tools", categoryParameter: "area" })
class MixedTools {
  @llmTool({ description: "Read", category: "read" })
  read() {}

  @llmTool({ description: "Write", category: "write" })
  write() {}

  @llmTool({ description: "Help on anything" })
  help() {}
}

@unfoldingTools({
  name: "admin_operations",
  description: "Administrative operations. Invoke to access specific areas.",
})
class AdminTools {
  @llmTool({ description: "Get system status" })
  getStatus() {
    return "System is healthy";
  }

  static UserManagement =
    @unfoldingTools({
      name: "user_management",
      description: "User management operations. Invoke to see specific tools.",
    })
    class {
      @llmTool({ description: "Create a new user", input: z.object({ username: z.string() }) })
      createUser({ username }: { username: string }) {
        return `Created user: ${username}`;
      }

      @llmTool({ description: "Delete a user", input: z.object({ username: z.string() }) })
      deleteUser({ username }: { username: string }) {
        return `Deleted user: ${username}`;
      }

      static Permissions =
        @unfoldingTools({ name: "user_permissions", description: "User permission operations" })
        class {
          @llmTool({ description: "Grant permission to user" })
          grant() {
            return "Granted";
          }

          @llmTool({ description: "Revoke permission from user" })
          revoke() {
            return "Revoked";
          }
        };
    };

  static SystemConfig =
    @unfoldingTools({
      name: "system_config",
      description: "System configuration. Invoke to see config tools.",
    })
    class {
      @llmTool({ description: "Backup configuration" })
      backup() {
        return "Backed up";
      }
    };

  static notATool = "ignored";
}

describe("unfoldingTools", () => {
  it("makes UnfoldingTool.fromInstance build a simple facade from the @llmTool methods", () => {
    const facade = UnfoldingTool.fromInstance(new DatabaseTools());
    expect(facade.definition.name).toBe("database_operations");
    expect(facade.definition.description).toBe("Database operations. Invoke to see specific tools.");
    expect(names(facade.innerTools)).toEqual(["query", "insert", "delete"]);
    expect(facade.selects).toBe(false);
  });

  it("makes Tool.fromInstance return the single facade", () => {
    const tools = Tool.fromInstance(new DatabaseTools());
    expect(tools).toHaveLength(1);
    expect(UnfoldingTool.isUnfoldingTool(tools[0])).toBe(true);
    expect(tools[0]?.definition.name).toBe("database_operations");
  });

  it("makes a ToolObject (withToolObject on a runner) contribute the single facade", () => {
    expect(names(new ToolObject(new DatabaseTools()).tools())).toEqual(["database_operations"]);
  });

  it("carries childToolUsageNotes to the facade", async () => {
    const facade = UnfoldingTool.fromInstance(new MusicSearchTools());
    expect(facade.childToolUsageNotes).toBe(
      "Try vector search first for semantic queries. Use text search for exact artist names.",
    );
    expect((await facade.call("{}")).content).toMatch(/\n\nTry vector search first/);
  });

  it("the inner method tools run against the instance", async () => {
    const facade = UnfoldingTool.fromInstance(new DatabaseTools());
    const result = await facade.call('{"insert": {"table": "users"}}');
    expect(result.content).toBe("inserted into users");
  });

  it("groups tools by @llmTool category into a category facade", async () => {
    const facade = UnfoldingTool.fromInstance(new FileTools());
    expect(facade.definition.inputSchema.jsonSchema.properties).toEqual({
      category: {
        type: "string",
        description: "Category to access. Available: read, write",
        enum: ["read", "write"],
      },
    });
    expect(names(await facade.selectTools('{"category": "read"}'))).toEqual(["readFile", "listDir"]);
    expect(names(await facade.selectTools('{"category": "write"}'))).toEqual(["writeFile", "deleteFile"]);
  });

  it("adds uncategorised tools to every category and an 'all' category, with a custom parameter", async () => {
    const facade = UnfoldingTool.fromInstance(new MixedTools());
    const area = facade.definition.inputSchema.jsonSchema.properties as Record<string, { enum: string[] }>;
    expect(area.area?.enum).toEqual(["read", "write", "all"]);
    expect(names(await facade.selectTools('{"area": "read"}'))).toEqual(["read", "help"]);
    expect(names(await facade.selectTools('{"area": "all"}'))).toEqual(["read", "write", "help"]);
  });

  it("adds no 'all' category when every tool has a category", () => {
    const properties = UnfoldingTool.fromInstance(new FileTools()).definition.inputSchema.jsonSchema
      .properties as Record<string, { enum: string[] }>;
    expect(properties.category?.enum).not.toContain("all");
  });

  it("keeps a category the class calls 'all' as it is", async () => {
    @unfoldingTools({ name: "own_all", description: "Own all", exclusive: true })
    class OwnAll {
      @llmTool({ description: "Everything", category: "all" })
      everything() {}

      @llmTool({ description: "Help" })
      help() {}
    }
    const facade = UnfoldingTool.fromInstance(new OwnAll());
    expect(names(await facade.selectTools('{"category": "all"}'))).toEqual(["everything", "help"]);
    expect(facade.exclusive).toBe(true);
  });

  it("discovers nested decorated classes held as static members, three levels deep", () => {
    const admin = UnfoldingTool.fromInstance(new AdminTools());
    expect(Tool.formatToolTree("admin", [admin])).toBe(
      [
        "admin",
        "└── admin_operations (3 inner tools)",
        "    ├── getStatus",
        "    ├── user_management (3 inner tools)",
        "    │   ├── createUser",
        "    │   ├── deleteUser",
        "    │   └── user_permissions (2 inner tools)",
        "    │       ├── grant",
        "    │       └── revoke",
        "    └── system_config (1 inner tools)",
        "        └── backup",
      ].join("\n"),
    );
  });

  it("nested facades unfold in turn", async () => {
    const admin = UnfoldingTool.fromInstance(new AdminTools());
    const users = admin.innerTools[1] as UnfoldingTool;
    expect(names((await unfold(users, "{}"))?.tools)).toEqual([
      "createUser",
      "deleteUser",
      "user_permissions",
      "user_management_context",
    ]);
  });

  it("puts nested facades among the uncategorised tools of a category facade", async () => {
    @unfoldingTools({ name: "outer", description: "Outer" })
    class Outer {
      @llmTool({ description: "Read", category: "read" })
      read() {}

      static Inner =
        @unfoldingTools({ name: "inner", description: "Inner" })
        class {
          @llmTool({ description: "Deep" })
          deep() {}
        };
    }
    const facade = UnfoldingTool.fromInstance(new Outer());
    expect(names(await facade.selectTools('{"category": "read"}'))).toEqual(["read", "inner"]);
    expect(names(await facade.selectTools('{"category": "all"}'))).toEqual(["read", "inner"]);
  });

  it("builds a facade from nested classes alone", () => {
    @unfoldingTools({ name: "root", description: "Root" })
    class Root {
      static Child =
        @unfoldingTools({ name: "child", description: "Child" })
        class {
          @llmTool({ description: "Leaf" })
          leaf() {}
        };
    }
    expect(names(UnfoldingTool.fromInstance(new Root()).innerTools)).toEqual(["child"]);
  });

  it("ignores a static member that refers back to an enclosing class", () => {
    @unfoldingTools({ name: "loopy", description: "Loopy" })
    class Loopy {
      static self: unknown;

      @llmTool({ description: "Leaf" })
      leaf() {}
    }
    Loopy.self = Loopy;
    expect(names(UnfoldingTool.fromInstance(new Loopy()).innerTools)).toEqual(["leaf"]);
  });

  it("is inherited by subclasses", () => {
    class MoreDatabaseTools extends DatabaseTools {
      @llmTool({ description: "Count records" })
      count() {
        return 3;
      }
    }
    const facade = UnfoldingTool.fromInstance(new MoreDatabaseTools());
    expect(facade.definition.name).toBe("database_operations");
    expect(names(facade.innerTools)).toEqual(["query", "insert", "delete", "count"]);
  });

  it("refuses an invalid facade name and a blank description when the class is defined", () => {
    expect(() => unfoldingTools({ name: "bad name", description: "x" })).toThrow(ConfigurationError);
    expect(() => unfoldingTools({ name: "ok", description: " " })).toThrow(/non-blank description/);
  });
});

describe("UnfoldingTool.fromInstance", () => {
  it("throws for a class without @unfoldingTools", () => {
    class Plain {
      @llmTool({ description: "x" })
      x() {}
    }
    expect(() => UnfoldingTool.fromInstance(new Plain())).toThrow(
      new ConfigurationError("Class Plain is not annotated with @unfoldingTools"),
    );
  });

  it("throws for a decorated class without tools", () => {
    @unfoldingTools({ name: "empty", description: "Empty" })
    class Empty {}
    expect(() => UnfoldingTool.fromInstance(new Empty())).toThrow(
      "Class Empty has no methods annotated with @llmTool and no inner classes annotated with @unfoldingTools",
    );
  });

  it("throws naming the nested class when it cannot be created without arguments", () => {
    class Service {
      constructor(readonly url: string) {
        if (!url) throw new Error("url is required");
      }
    }
    @unfoldingTools({ name: "outer", description: "Outer" })
    class Outer {
      static Remote =
        @unfoldingTools({ name: "remote", description: "Remote" })
        class Remote {
          readonly service = new Service("");
          @llmTool({ description: "Call" })
          call() {}
        };
    }
    expect(() => UnfoldingTool.fromInstance(new Outer())).toThrow(
      /Cannot create the nested @unfoldingTools class Remote of Outer with no arguments: url is required/,
    );
  });
});

describe("UnfoldingTool.safelyFromInstance", () => {
  it("returns undefined for a class without the decorator or without tools", () => {
    @unfoldingTools({ name: "empty", description: "Empty" })
    class Empty {}
    expect(UnfoldingTool.safelyFromInstance({})).toBeUndefined();
    expect(UnfoldingTool.safelyFromInstance(new Empty())).toBeUndefined();
  });

  it("makes Tool.safelyFromInstance give [] and Tool.fromInstance throw for a decorated class without tools", () => {
    @unfoldingTools({ name: "empty", description: "Empty" })
    class Empty {}
    expect(Tool.safelyFromInstance(new Empty())).toEqual([]);
    expect(() => Tool.fromInstance(new Empty())).toThrow(/No methods annotated with @llmTool found on Empty/);
  });

  it("returns the facade for a decorated class", () => {
    expect(UnfoldingTool.safelyFromInstance(new DatabaseTools())?.definition.name).toBe(
      "database_operations",
    );
  });
});

describe("UnfoldingTool.withToolObject with a decorated object", () => {
  it("adds it as one nested facade", () => {
    const facade = UnfoldingTool.of("workspace", "Workspace", []).withToolObject(new DatabaseTools());
    expect(names(facade.innerTools)).toEqual(["database_operations"]);
    expect(UnfoldingTool.isUnfoldingTool(facade.innerTools[0])).toBe(true);
  });
});
