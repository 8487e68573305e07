import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InputSchema } from "../tool/input-schema.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { Unfolding } from "../tool/unfolding.js";
import { UnfoldingTool } from "./unfolding-tool.js";

/** What the latest call of `tool` with `input`, outside any loop, unfolded. */
function unfoldedBy(tool: Tool, input: string): Unfolding | undefined {
  return Unfolding.ofCall(tool, { input, context: ToolCallContext.EMPTY, definition: tool.definition });
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

describe("UnfoldingTool shortcut dispatch", () => {
  it("calls the named inner tool with the property's value as JSON and still unfolds", async () => {
    const received: string[] = [];
    const facade = UnfoldingTool.of("tasks", "Tasks", [
      leaf("list_tasks"),
      leaf("create_task", received),
      leaf("delete_task"),
    ]);
    const result = await facade.call('{"create_task": {"name": "review-auth"}}');
    expect(result.content).toBe("create_task ran");
    expect(received).toEqual(['{"name":"review-auth"}']);
    expect(names(unfoldedBy(facade, '{"create_task": {"name": "review-auth"}}')?.tools)).toEqual([
      "list_tasks",
      "create_task",
      "delete_task",
      "tasks_context",
    ]);
  });

  it("passes a scalar as a JSON scalar (a string keeps its quotes) to a tool that reads its own arguments", async () => {
    const received: string[] = [];
    const lenient = Tool.create(
      "activate",
      "Activates a mood",
      ToolMetadata.create({ lenientArguments: true }),
      (input) => {
        received.push(input);
        return ToolResult.text("activated");
      },
    );
    const result = await UnfoldingTool.of("mood", "Mood", [lenient]).call('{"activate": "ecstasy"}');
    expect(result.content).toBe("activated");
    expect(received).toEqual(['"ecstasy"']);
  });

  it("refuses a scalar in-band for a tool with a schema, which never runs", async () => {
    const received: string[] = [];
    const facade = UnfoldingTool.of("mood", "Mood", [leaf("activate", received)]);
    for (const scalar of ['"ecstasy"', "42", "true", "null", '["a"]']) {
      const result = await facade.call(`{"activate": ${scalar}}`);
      expect(result.kind).toBe("error");
      expect(result.content).toMatch(
        /^Invalid arguments for tool 'activate': the arguments must be a JSON object, got /,
      );
    }
    expect(received).toEqual([]);
  });

  it("checks a shortcut's arguments against the inner tool's schema and its zod parse, approval or not", async () => {
    const runs: unknown[] = [];
    const typed = Tool.fromFunction(
      "set_volume",
      "Sets the volume",
      z.object({
        level: z
          .number()
          .int()
          .max(10)
          .refine((level) => level % 2 === 0, "must be even"),
      }),
      z.string(),
      (input) => {
        runs.push(input);
        return "set";
      },
    );
    const facade = UnfoldingTool.of("audio", "Audio", [typed]);
    const scalar = await facade.call('{"set_volume": 11}');
    expect(scalar.content).toMatch(/must be a JSON object, got 11/);
    const schema = await facade.call('{"set_volume": {"level": "loud"}}');
    expect(schema.kind).toBe("error");
    expect(schema.content).toMatch(/^Invalid arguments for tool 'set_volume': field 'level' must be integer/);
    const maximum = await facade.call('{"set_volume": {"level": 12}}');
    expect(maximum.content).toMatch(/level.*10/);
    // Only zod knows the refinement: the typed tool's own parse refuses it before the function runs.
    const refinement = await facade.call('{"set_volume": {"level": 7}}');
    expect(refinement.kind).toBe("error");
    expect(refinement.content).toMatch(/must be even/);
    expect(runs).toEqual([]);
    expect((await facade.call('{"set_volume": {"level": "8"}}')).content).toBe("set");
    expect(runs).toEqual([{ level: 8 }]);
  });

  it("forwards the context and the signal to the inner tool", async () => {
    const seen: { tenant?: unknown; signal?: AbortSignal } = {};
    const inner = Tool.create("whoami", "Who am I", (_input, context, options) => {
      seen.tenant = context.get("tenant");
      if (options.signal) seen.signal = options.signal;
      return ToolResult.text("you");
    });
    const signal = new AbortController().signal;
    await UnfoldingTool.of("account", "Account", [inner]).call(
      '{"whoami": {}}',
      ToolCallContext.of({ tenant: "acme" }),
      { signal },
    );
    expect(seen).toEqual({ tenant: "acme", signal });
  });

  it("keeps the inner tool's result kind and artifact", async () => {
    const inner = Tool.create("fetch", "Fetch", () => ToolResult.withArtifact("{}", { id: 7 }));
    const result = await UnfoldingTool.of("store", "Store", [inner]).call('{"fetch": {}}');
    expect(result).toMatchObject({ kind: "artifact", content: "{}", artifact: { id: 7 } });
  });

  it("unfolds normally for unmatched names, invalid JSON and arrays", async () => {
    const facade = UnfoldingTool.of("tasks", "Tasks", [leaf("list_tasks")]);
    for (const input of ['{"random_field": "value"}', "{not json", '["list_tasks"]', '"list_tasks"']) {
      expect((await facade.call(input)).content).toMatch(/^Tools now available: list_tasks\./);
    }
  });

  it("through a nested facade, unfolds both levels: the child appears as its guide, its tools follow", async () => {
    const received: string[] = [];
    const child = UnfoldingTool.of("user_management", "Users", [
      leaf("create_user", received),
      leaf("delete_user"),
    ]);
    const outer = UnfoldingTool.of("admin", "Admin", [child, leaf("status")]);
    const result = await outer.call('{"user_management": {"create_user": {"name": "ann"}}}');
    expect(result.content).toBe("create_user ran");
    expect(received).toEqual(['{"name":"ann"}']);
    const unfolding = unfoldedBy(outer, '{"user_management": {"create_user": {"name": "ann"}}}');
    expect(names(unfolding?.tools)).toEqual([
      "user_management",
      "status",
      "admin_context",
      "create_user",
      "delete_user",
      "user_management_context",
    ]);
    expect(unfolding?.tools[0]).not.toBe(child);
    expect(unfolding?.guide?.definition.name).toBe("admin");
    expect(unfolding?.exclusive).toBe(false);
  });

  it("offers the dispatched tool when a selector selects nothing for the shortcut's input", async () => {
    const inner = leaf("lookup");
    const facade = UnfoldingTool.selectable("catalogue", "Catalogue", [inner], InputSchema.empty(), () => []);
    const input = '{"lookup": {}}';
    expect((await facade.call(input)).content).toBe("lookup ran");
    expect(names(unfoldedBy(facade, input)?.tools)).toEqual(["lookup", "catalogue_context"]);
  });

  it("keeps a nested facade's exclusive and returnDirect when reached by shortcut", async () => {
    const direct = Tool.create("finish", "Finishes", ToolMetadata.create({ returnDirect: true }), () =>
      ToolResult.text("done"),
    );
    const child = UnfoldingTool.of("admin", "Admin", [direct], { exclusive: true });
    const parent = UnfoldingTool.of("ops", "Operations", [child, leaf("status")]);
    const throughChild = '{"admin": {"finish": {}}}';
    expect((await parent.call(throughChild)).content).toBe("done");
    const unfolding = unfoldedBy(parent, throughChild);
    expect(unfolding?.exclusive).toBe(true);
    expect(unfolding?.returnDirect).toBe(true);
    expect(unfolding?.dispatched).toEqual(["admin", "finish"]);
    const plain = '{"admin": {}}';
    await parent.call(plain);
    expect(unfoldedBy(parent, plain)?.exclusive).toBe(true);
    expect(unfoldedBy(parent, plain)?.returnDirect).toBeUndefined();
  });
});
