import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ChainedToolInjectionStrategy } from "../loop/chained-tool-injection-strategy.js";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel, type ScriptedRequest } from "../testing/index.js";
import { DelegatingTool } from "../tool/abstract-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import { llmTool } from "../tool/llm-tool.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { UnfoldingTool } from "./unfolding-tool.js";
import { unfoldingTools } from "./unfolding-tools.js";

const prompt: LanguageModelV3Prompt = [
  { role: "system", content: "You are helpful." },
  { role: "user", content: [{ type: "text", text: "Do it." }] },
];

const PREAMBLE =
  "You MUST call one of these tools to complete the user's request. Do NOT respond with text — call a tool.";

function leaf(name: string, received: string[] = []): Tool {
  return Tool.create(name, `The ${name} tool`, InputSchema.empty(), (input) => {
    received.push(input);
    return ToolResult.text(`${name} ran`);
  });
}

function database(options: { exclusive?: boolean } = {}) {
  return UnfoldingTool.of(
    "database_operations",
    "Use this tool to work with the database. Invoke to see specific operations.",
    [leaf("query_table"), leaf("insert_record"), leaf("delete_record")],
    { ...options, childToolUsageNotes: "Query before you delete." },
  );
}

/** The text of the tool result the model was shown at `request`. */
function resultText(request: ScriptedRequest | undefined, index = 0): unknown {
  const output = request?.toolResults[index]?.output as { value?: unknown } | undefined;
  return output?.value;
}

/** True when every tool definition of one request reappears byte-identical, at the same position, in the next. */
function onlyAppends(requests: readonly ScriptedRequest[]): boolean {
  return requests.every((request, index) => {
    const next = requests[index + 1];
    if (!next) return true;
    return request.tools.every(
      (tool, position) => JSON.stringify(tool) === JSON.stringify(next.tools[position]),
    );
  });
}

describe("UnfoldingTool in the tool loop", () => {
  it("offers the facade, then the guide in its place, the inner tools and the context tool", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.toolCall("query_table", {}),
      ScriptedModel.text("Done."),
    );
    const result = await runToolLoop({ model, prompt, tools: [database(), leaf("send_email")] });
    expect(result.text).toBe("Done.");
    const afterUnfolding = [
      "database_operations",
      "send_email",
      "query_table",
      "insert_record",
      "delete_record",
      "database_operations_context",
    ];
    expect(model.toolNamesPerRequest).toEqual([
      ["database_operations", "send_email"],
      afterUnfolding,
      afterUnfolding,
    ]);
  });

  it("shows the model the exact unfolded message with the usage notes", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [database()] });
    expect(resultText(model.requests[1])).toBe(
      `Tools now available: query_table, insert_record, delete_record. ${PREAMBLE}\n\nQuery before you delete.`,
    );
  });

  it("only appends: every earlier definition stays byte-identical (the guide keeps the facade's definition)", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [leaf("first"), database(), leaf("last")] });
    expect(model.requests[1]?.toolNames.slice(0, 3)).toEqual(["first", "database_operations", "last"]);
    expect(onlyAppends(model.requests)).toBe(true);
  });

  it("answers a second call of the facade's name with the guide, not an unknown-tool error", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [database()] });
    expect(resultText(model.requests[2])).toBe(
      [
        "Use one of these tools directly:",
        "- query_table: The query_table tool",
        "- insert_record: The insert_record tool",
        "- delete_record: The delete_record tool",
        "",
        "Query before you delete.",
      ].join("\n"),
    );
    expect(model.requests[2]?.toolResults[0]?.output.type).toBe("text");
  });

  it("answers the context tool in full once per loop, then briefly", async () => {
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.toolCall("database_operations_context", {}),
      ScriptedModel.toolCall("database_operations_context", {}),
      ScriptedModel.text("ok"),
    );
    const facade = database();
    await runToolLoop({ model, prompt, tools: [facade] });
    expect(resultText(model.requests[2])).toBe(
      [
        "Tools for Use this tool to work with the database. Invoke to see specific operations.:",
        "- query_table: The query_table tool",
        "- insert_record: The insert_record tool",
        "- delete_record: The delete_record tool",
        "",
        "Usage notes: Query before you delete.",
      ].join("\n"),
    );
    expect(resultText(model.requests[3])).toBe(
      "The usage notes for 'database_operations' were returned earlier in this turn; call one of: query_table, insert_record, delete_record.",
    );
    // A new loop with the same facade gets the full answer again.
    const again = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.toolCall("database_operations_context", {}),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model: again, prompt, tools: [facade] });
    expect(resultText(again.requests[2])).toMatch(/^Tools for /);
  });

  it("exclusive: unfolding removes every sibling", async () => {
    const personality = UnfoldingTool.of(
      "change_personality",
      "Change the assistant's personality. Invoke to see personality options.",
      [leaf("formal"), leaf("casual"), leaf("technical")],
      { exclusive: true },
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("change_personality", {}),
      ScriptedModel.toolCall("casual", {}),
      ScriptedModel.text("Hey!"),
    );
    const result = await runToolLoop({
      model,
      prompt,
      tools: [leaf("weather"), personality, leaf("search")],
    });
    expect(model.toolNamesPerRequest).toEqual([
      ["weather", "change_personality", "search"],
      ["change_personality", "formal", "casual", "technical", "change_personality_context"],
      ["change_personality", "formal", "casual", "technical", "change_personality_context"],
    ]);
    expect(result.removedTools.map((tool) => tool.definition.name)).toEqual([
      "weather",
      "search",
      "change_personality",
    ]);
    expect(onlyAppends(model.requests)).toBe(false);
  });

  it("unfolds nested facades level by level, three levels deep", async () => {
    const received: string[] = [];
    const permissions = UnfoldingTool.of("user_permissions", "User permission operations", [
      leaf("grant", received),
      leaf("revoke"),
    ]);
    const users = UnfoldingTool.of("user_management", "User management operations", [
      leaf("create_user"),
      permissions,
    ]);
    const config = UnfoldingTool.of("system_config", "System configuration operations", [leaf("backup")]);
    const admin = UnfoldingTool.of(
      "admin_operations",
      "Administrative operations. Invoke to see categories.",
      [users, config],
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("admin_operations", {}),
      ScriptedModel.toolCall("user_management", {}),
      ScriptedModel.toolCall("user_permissions", {}),
      ScriptedModel.toolCall("grant", {}),
      ScriptedModel.text("Granted."),
    );
    const result = await runToolLoop({ model, prompt, tools: [admin] });
    const level1 = ["admin_operations", "user_management", "system_config", "admin_operations_context"];
    const level2 = [...level1, "create_user", "user_permissions", "user_management_context"];
    const level3 = [...level2, "grant", "revoke", "user_permissions_context"];
    expect(model.toolNamesPerRequest).toEqual([["admin_operations"], level1, level2, level3, level3]);
    expect(received).toEqual(["{}"]);
    expect(result.text).toBe("Granted.");
    expect(onlyAppends(model.requests)).toBe(true);
  });

  it("unfolds a decorated class hierarchy level by level", async () => {
    @unfoldingTools({ name: "admin_operations", description: "Administrative operations." })
    class AdminTools {
      @llmTool({ description: "Get system status" })
      getStatus() {
        return "System is healthy";
      }

      static UserManagement =
        @unfoldingTools({ name: "user_management", description: "User management operations." })
        class {
          @llmTool({ description: "Create a new user", input: z.object({ username: z.string() }) })
          createUser({ username }: { username: string }) {
            return `Created user: ${username}`;
          }

          static Permissions =
            @unfoldingTools({ name: "user_permissions", description: "User permission operations" })
            class {
              @llmTool({ description: "Grant permission to user", input: z.object({ user: z.string() }) })
              grant({ user }: { user: string }) {
                return `Granted to ${user}`;
              }
            };
        };
    }
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("admin_operations", {}),
      ScriptedModel.toolCall("user_management", {}),
      ScriptedModel.toolCall("user_permissions", {}),
      ScriptedModel.toolCall("grant", { user: "ann" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: Tool.fromInstance(new AdminTools()) });
    expect(
      model.toolNamesPerRequest.map((list) => list.filter((name) => !name.endsWith("_context"))),
    ).toEqual([
      ["admin_operations"],
      ["admin_operations", "getStatus", "user_management"],
      ["admin_operations", "getStatus", "user_management", "createUser", "user_permissions"],
      ["admin_operations", "getStatus", "user_management", "createUser", "user_permissions", "grant"],
      ["admin_operations", "getStatus", "user_management", "createUser", "user_permissions", "grant"],
    ]);
    expect(resultText(model.requests[4])).toBe("Granted to ann");
  });

  it("sends the category enum in the schema and unfolds only the chosen category", async () => {
    const files = UnfoldingTool.byCategory(
      "file_operations",
      "File operations. Pass category: 'read' for reading files, 'write' for modifying files.",
      { read: [leaf("read_file"), leaf("list_directory")], write: [leaf("write_file"), leaf("delete_file")] },
    );
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("file_operations", { category: "write" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [files] });
    expect(model.requests[0]?.tools[0]?.inputSchema).toEqual({
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
    expect(model.toolNamesPerRequest[1]).toEqual([
      "file_operations",
      "write_file",
      "delete_file",
      "file_operations_context",
    ]);
  });

  it("answers a category outside the enum in-band and changes nothing", async () => {
    const files = UnfoldingTool.byCategory("file_operations", "Files", { read: [leaf("read_file")] });
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("file_operations", { category: "admin" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [files] });
    expect(model.toolNamesPerRequest[1]).toEqual(["file_operations"]);
    expect(resultText(model.requests[1])).toMatch(/Invalid arguments for tool 'file_operations'/);
  });

  it("lets the guide of a category facade unfold another category later", async () => {
    const files = UnfoldingTool.byCategory("files", "Files", {
      read: [leaf("read_file")],
      write: [leaf("write_file")],
    });
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("files", { category: "read" }),
      ScriptedModel.toolCall("files", { category: "write" }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [files] });
    expect(model.toolNamesPerRequest).toEqual([
      ["files"],
      ["files", "read_file", "files_context"],
      ["files", "read_file", "files_context", "write_file"],
    ]);
    expect(onlyAppends(model.requests)).toBe(true);
  });

  it("dispatches input naming an inner tool straight to it, and unfolds", async () => {
    const received: string[] = [];
    const tasks = UnfoldingTool.of("tasks", "Task operations", [
      leaf("list_tasks"),
      Tool.create(
        "create_task",
        "Create a task",
        InputSchema.of(Param.string("name", "Task name")),
        (input) => {
          received.push(input);
          return ToolResult.text("Created");
        },
      ),
    ]);
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("tasks", { create_task: { name: "review-auth" } }),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt, tools: [tasks] });
    expect(received).toEqual(['{"name":"review-auth"}']);
    expect(resultText(model.requests[1])).toBe("Created");
    expect(model.toolNamesPerRequest[1]).toEqual(["tasks", "list_tasks", "create_task", "tasks_context"]);
  });

  it("leaves the tool list alone when the selector selects nothing", async () => {
    const picky = UnfoldingTool.selectable("picky", "Picky", [], InputSchema.empty(), () => []);
    const model = ScriptedModel.of(ScriptedModel.toolCall("picky", {}), ScriptedModel.text("ok"));
    const result = await runToolLoop({ model, prompt, tools: [picky, leaf("other")] });
    expect(model.toolNamesPerRequest).toEqual([
      ["picky", "other"],
      ["picky", "other"],
    ]);
    expect(result.injectedTools).toEqual([]);
  });

  it("decorates the guide, the inner tools and the context tool with the loop's decorator", async () => {
    class Tagged extends DelegatingTool {}
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.text("ok"),
    );
    const result = await runToolLoop({
      model,
      prompt,
      tools: [database()],
      toolDecorator: (tool) => new Tagged(tool),
    });
    expect(result.tools.every((tool) => tool instanceof Tagged)).toBe(true);
    expect(result.tools.map((tool) => tool.definition.name)).toEqual([
      "database_operations",
      "query_table",
      "insert_record",
      "delete_record",
      "database_operations_context",
    ]);
  });

  it("unfolds with ChainedToolInjectionStrategy.withUnfolding and a custom strategy", async () => {
    const extra = leaf("audit_log");
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("database_operations", {}),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({
      model,
      prompt,
      tools: [database()],
      injectionStrategy: ChainedToolInjectionStrategy.withUnfolding({ evaluate: () => ({ add: [extra] }) }),
    });
    expect(model.toolNamesPerRequest[1]).toEqual([
      "database_operations",
      "query_table",
      "insert_record",
      "delete_record",
      "database_operations_context",
      "audit_log",
    ]);
  });
});
