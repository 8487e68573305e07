import { describe, expect, it } from "vitest";
import { ReplanRequested } from "../errors/replan-requested.js";
import { InputSchema } from "../tool/input-schema.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { isNestedTool, Unfolding } from "../tool/unfolding.js";
import { GuideTool } from "./guide-tool.js";
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

function leaf(name: string, received: string[] = []): Tool {
  return Tool.create(name, `The ${name} tool`, (input) => {
    received.push(input);
    return ToolResult.text(`${name} ran`);
  });
}

function names(tools: readonly Tool[] | undefined): string[] {
  return (tools ?? []).map((tool) => tool.definition.name);
}

async function guideOf(facade: UnfoldingTool, input = "{}"): Promise<GuideTool> {
  const guide = (await unfold(facade, input))?.guide;
  if (!(guide instanceof GuideTool)) throw new Error("no guide");
  return guide;
}

describe("GuideTool", () => {
  it("has the facade's exact definition", async () => {
    const facade = UnfoldingTool.of("tasks", "Task operations", [leaf("list_tasks")]);
    expect((await guideOf(facade)).definition).toBe(facade.definition);
  });

  it("answers with the list of children", async () => {
    const guide = await guideOf(
      UnfoldingTool.of("tasks", "Tasks", [leaf("list_tasks"), leaf("create_task")]),
    );
    const result = await guide.call("{}");
    expect(result).toMatchObject({
      kind: "text",
      content:
        "Use one of these tools directly:\n- list_tasks: The list_tasks tool\n- create_task: The create_task tool",
    });
    expect(unfoldedBy(guide, "{}")).toBeUndefined();
  });

  it("adds the usage notes after a blank line", async () => {
    const guide = await guideOf(
      UnfoldingTool.of("tasks", "Tasks", [leaf("list_tasks")], {
        childToolUsageNotes: "List before creating.",
      }),
    );
    expect((await guide.call("{}")).content).toBe(
      "Use one of these tools directly:\n- list_tasks: The list_tasks tool\n\nList before creating.",
    );
  });

  it("never fails, whatever the input", async () => {
    const guide = await guideOf(UnfoldingTool.of("tasks", "Tasks", [leaf("list_tasks")]));
    for (const input of ["", "{broken", "[1,2]", '{"unknown": 1}']) {
      expect((await guide.call(input)).kind).toBe("text");
    }
  });

  it("is a nested tool listing the children offered", async () => {
    const guide = await guideOf(UnfoldingTool.of("tasks", "Tasks", [leaf("list_tasks")]));
    expect(isNestedTool(guide)).toBe(true);
    expect(names(guide.innerTools)).toEqual(["list_tasks"]);
  });

  it("dispatches input naming a child to that child with the context and the signal", async () => {
    const received: string[] = [];
    let tenant: unknown;
    let seenSignal: AbortSignal | undefined;
    const child = Tool.create("create_task", "Create", (input, context, options) => {
      received.push(input);
      tenant = context.get("tenant");
      seenSignal = options.signal;
      return ToolResult.text("created");
    });
    const guide = await guideOf(UnfoldingTool.of("tasks", "Tasks", [child]));
    const { signal } = new AbortController();
    const result = await guide.call(
      '{"create_task": {"name": "x"}}',
      ToolCallContext.of({ tenant: "acme" }),
      {
        signal,
      },
    );
    expect(result.content).toBe("created");
    expect(received).toEqual(['{"name":"x"}']);
    expect(tenant).toBe("acme");
    expect(seenSignal).toBe(signal);
  });

  it("keeps itself in place when a dispatched child facade unfolds, and offers that child's tools", async () => {
    const child = UnfoldingTool.of("users", "Users", [leaf("create_user")]);
    const guide = await guideOf(UnfoldingTool.of("admin", "Admin", [child]));
    const unfolding = await unfold(guide, '{"users": {}}');
    expect(unfolding?.guide).toBe(guide);
    expect(names(unfolding?.tools)).toEqual(["create_user", "users_context"]);
  });

  it("for a category facade, unfolds a newly chosen category's tools not offered yet", async () => {
    const query = leaf("query");
    const facade = UnfoldingTool.byCategory("db", "Db", { read: [query], write: [leaf("insert"), query] });
    const guide = await guideOf(facade, '{"category": "read"}');
    const result = await guide.call('{"category": "write"}');
    expect(result.content).toMatch(/^Tools now available: insert\./);
    const unfolding = unfoldedBy(guide, '{"category": "write"}');
    expect(names(unfolding?.tools)).toEqual(["insert"]);
    expect(unfolding?.guide).toBe(guide);
    expect(unfolding?.exclusive).toBe(false);
    expect(names(guide.innerTools)).toEqual(["query", "insert"]);
  });

  it("for a selectable facade, passes the context and the signal to the reselection", async () => {
    const seen: { tenant?: unknown; signal?: AbortSignal }[] = [];
    const facade = UnfoldingTool.selectable(
      "db",
      "Db",
      [],
      InputSchema.empty(),
      (_input, context, options) => {
        seen.push({ tenant: context.get("tenant"), ...(options.signal ? { signal: options.signal } : {}) });
        return [leaf("query")];
      },
    );
    const guide = await guideOf(facade);
    const { signal } = new AbortController();
    await guide.call("{}", ToolCallContext.of({ tenant: "acme" }), { signal });
    expect(seen).toEqual([{}, { tenant: "acme", signal }]);
  });

  it("for a category facade, lists the children when the choice offers nothing new", async () => {
    const facade = UnfoldingTool.byCategory("db", "Db", { read: [leaf("query")], write: [leaf("insert")] });
    const guide = await guideOf(facade);
    expect((await guide.call('{"category": "read"}')).content).toMatch(/^Use one of these tools directly:/);
  });

  it("for a selectable facade, answers with the list when the selector fails", async () => {
    let calls = 0;
    const facade = UnfoldingTool.selectable("db", "Db", [], InputSchema.empty(), () => {
      calls += 1;
      if (calls > 1) throw new Error("boom");
      return [leaf("query")];
    });
    const guide = await guideOf(facade);
    expect((await guide.call("{}")).content).toBe(
      "Use one of these tools directly:\n- query: The query tool",
    );
  });

  it("lets a control-flow signal from the selector through", async () => {
    let calls = 0;
    const facade = UnfoldingTool.selectable("db", "Db", [], InputSchema.empty(), () => {
      calls += 1;
      if (calls > 1) throw new ReplanRequested("needs a human");
      return [leaf("query")];
    });
    const guide = await guideOf(facade);
    await expect(guide.call("{}")).rejects.toBeInstanceOf(ReplanRequested);
  });
});
