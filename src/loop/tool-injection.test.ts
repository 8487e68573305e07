import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { ToolResult } from "../tool/tool-result.js";
import { Unfolding } from "../tool/unfolding.js";
import { applyToolInjection } from "./apply-tool-injection.js";
import { ChainedToolInjectionStrategy } from "./chained-tool-injection-strategy.js";
import type { ToolInjectionStrategy as Strategy, ToolInjectionContext } from "./tool-injection-strategy.js";
import { ToolInjectionResult, ToolInjectionStrategy } from "./tool-injection-strategy.js";
import { runToolLoop, type ToolLoopEvent } from "./tool-loop.js";
import { ToolSet } from "./tool-set.js";
import { UnfoldingToolInjectionStrategy } from "./unfolding-tool-injection-strategy.js";

const prompt: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "go" }] }];

function echo(name: string): Tool {
  return Tool.create(name, `The ${name} tool`, () => ToolResult.text(`${name} done`));
}

/** A facade whose call carries an unfolding, as the progressive layer's UnfoldingTool does. */
function facade(name: string, unfolding: Unfolding): Tool {
  return Tool.create(name, `Facade ${name}`, () =>
    Unfolding.attach(ToolResult.text(`${name} unfolded`), unfolding),
  );
}

function names(tools: readonly Tool[]): string[] {
  return tools.map((tool) => tool.definition.name);
}

function contextAfter(tool: Tool, result: ToolResult, tools: readonly Tool[]): ToolInjectionContext {
  return {
    tools,
    lastToolCall: { tool, toolName: tool.definition.name, toolInput: "{}", result },
    iteration: 1,
    context: ToolCallContext.EMPTY,
  };
}

describe("applyToolInjection", () => {
  it("removes by name, replaces in place, then appends new tools", () => {
    const tools = ToolSet.of([echo("a"), echo("b"), echo("c")]);
    const replacement = echo("b");
    const { added, removed } = applyToolInjection(tools, {
      remove: ["a"],
      replace: [replacement],
      add: [echo("d")],
    });
    expect(names(tools.tools)).toEqual(["b", "c", "d"]);
    expect(tools.get("b")).toBe(replacement);
    expect(names(added)).toEqual(["b", "d"]);
    expect(names(removed)).toEqual(["a", "b"]);
  });

  it("skips additions whose name is already offered", () => {
    const existing = echo("existing");
    const tools = ToolSet.of([existing, echo("removed")]);
    const { added, removed } = applyToolInjection(tools, {
      add: [echo("existing"), echo("added")],
      remove: ["removed"],
    });
    expect(tools.get("existing")).toBe(existing);
    expect(names(tools.tools)).toEqual(["existing", "added"]);
    expect(names(added)).toEqual(["added"]);
    expect(names(removed)).toEqual(["removed"]);
  });

  it("decorates replacements and additions and records the decorated instances", () => {
    const tools = ToolSet.of([echo("existing")]);
    const decorate = (tool: Tool) => tool.withNote("decorated");
    const { added } = applyToolInjection(tools, { add: [echo("added")] }, decorate);
    expect(added[0]?.definition.description).toBe("The added tool. decorated");
    expect(tools.get("added")).toBe(added[0]);
  });

  it("rejects a decorator that renames an injected tool", () => {
    const tools = ToolSet.of([echo("a")]);
    const rename = (tool: Tool) => tool.withName(`x_${tool.definition.name}`);
    expect(() => applyToolInjection(tools, { add: [echo("b")] }, rename)).toThrow(ConfigurationError);
    expect(names(tools.tools)).toEqual(["a"]);
  });

  it("appends a replacement whose name is not offered", () => {
    const tools = ToolSet.of([echo("a")]);
    applyToolInjection(tools, { replace: [echo("z")] });
    expect(names(tools.tools)).toEqual(["a", "z"]);
  });
});

describe("UnfoldingToolInjectionStrategy", () => {
  const strategy = new UnfoldingToolInjectionStrategy();

  it("changes nothing for a result without an unfolding", () => {
    const tool = echo("a");
    expect(strategy.evaluate(contextAfter(tool, ToolResult.text("x"), [tool]))).toBeUndefined();
  });

  it("changes nothing for an unfolding without tools", () => {
    const tool = echo("a");
    const result = Unfolding.attach(ToolResult.text("x"), { tools: [], exclusive: false });
    expect(strategy.evaluate(contextAfter(tool, result, [tool]))).toBeUndefined();
  });

  it("replaces the facade with its guide and appends the selected tools", () => {
    const tool = echo("db");
    const guide = echo("db");
    const inner = [echo("db_query"), echo("db_insert")];
    const result = Unfolding.attach(ToolResult.text("x"), { tools: inner, guide, exclusive: false });
    expect(strategy.evaluate(contextAfter(tool, result, [echo("other"), tool]))).toEqual({
      replace: [guide],
      add: inner,
    });
  });

  it("renames a guide to the name the facade was called under", () => {
    const tool = echo("renamed_db");
    const result = Unfolding.attach(ToolResult.text("x"), {
      tools: [echo("q")],
      guide: echo("db"),
      exclusive: false,
    });
    const change = strategy.evaluate(contextAfter(tool, result, [tool]));
    expect(change?.replace?.map((guide) => guide.definition.name)).toEqual(["renamed_db"]);
  });

  it("removes the facade when there is no guide", () => {
    const tool = echo("db");
    const result = Unfolding.attach(ToolResult.text("x"), { tools: [echo("q")], exclusive: false });
    expect(strategy.evaluate(contextAfter(tool, result, [tool]))?.remove).toEqual(["db"]);
  });

  it("removes every other tool when exclusive", () => {
    const tool = echo("db");
    const result = Unfolding.attach(ToolResult.text("x"), {
      tools: [echo("q")],
      guide: echo("db"),
      exclusive: true,
    });
    expect(strategy.evaluate(contextAfter(tool, result, [echo("a"), tool, echo("b")]))?.remove).toEqual([
      "a",
      "b",
    ]);
  });
});

describe("ChainedToolInjectionStrategy", () => {
  const adding = (name: string): Strategy => ({
    evaluate: () => ({ add: [echo(name)], remove: [`old_${name}`] }),
  });

  it("concatenates the changes of its strategies in order", () => {
    const chained = new ChainedToolInjectionStrategy([
      adding("x"),
      { evaluate: () => undefined },
      adding("y"),
    ]);
    const tool = echo("a");
    const change = chained.evaluate(contextAfter(tool, ToolResult.text(""), [tool]));
    expect(names(change?.add ?? [])).toEqual(["x", "y"]);
    expect(change?.remove).toEqual(["old_x", "old_y"]);
  });

  it("returns undefined when no strategy changes anything", () => {
    const tool = echo("a");
    expect(
      new ChainedToolInjectionStrategy([]).evaluate(contextAfter(tool, ToolResult.text(""), [tool])),
    ).toBeUndefined();
  });

  it("withUnfolding puts the unfolding strategy first", () => {
    const custom = adding("x");
    const chained = ChainedToolInjectionStrategy.withUnfolding(custom);
    expect(chained.strategies[0]).toBeInstanceOf(UnfoldingToolInjectionStrategy);
    expect(chained.strategies[1]).toBe(custom);
  });
});

describe("ToolInjectionStrategy", () => {
  it("NONE never changes anything", () => {
    const tool = facade("db", { tools: [echo("q")], exclusive: false });
    const result = Unfolding.attach(ToolResult.text(""), { tools: [echo("q")], exclusive: false });
    expect(ToolInjectionStrategy.NONE.evaluate(contextAfter(tool, result, [tool]))).toBeUndefined();
  });

  it("DEFAULT unfolds facades", () => {
    const tool = echo("db");
    const result = Unfolding.attach(ToolResult.text(""), { tools: [echo("q")], exclusive: false });
    expect(
      names(ToolInjectionStrategy.DEFAULT.evaluate(contextAfter(tool, result, [tool]))?.add ?? []),
    ).toEqual(["q"]);
  });
});

describe("tool injection in the loop", () => {
  it("offers the guide in the facade's place and the inner tools from the next round", async () => {
    const inner = [echo("db_query"), echo("db_insert")];
    const guide = Tool.create("db", "Call a specific tool instead: db_query, db_insert", () =>
      ToolResult.text("use them"),
    );
    const tools = [echo("alpha"), facade("db", { tools: inner, guide, exclusive: false }), echo("omega")];
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("db"),
      ScriptedModel.toolCall("db_query"),
      ScriptedModel.text("done"),
    );
    const result = await runToolLoop({ model, prompt, tools });
    expect(model.toolNamesPerRequest).toEqual([
      ["alpha", "db", "omega"],
      ["alpha", "db", "omega", "db_query", "db_insert"],
      ["alpha", "db", "omega", "db_query", "db_insert"],
    ]);
    expect(model.requests[1]?.tools[1]?.description).toBe(
      "Call a specific tool instead: db_query, db_insert",
    );
    expect(names(result.injectedTools)).toEqual(["db", "db_query", "db_insert"]);
    expect(names(result.removedTools)).toEqual(["db"]);
  });

  it("keeps the definitions of untouched tools byte-identical across rounds", async () => {
    const tools = [
      echo("alpha"),
      facade("db", { tools: [echo("q")], guide: echo("db"), exclusive: false }),
      echo("omega"),
    ];
    const model = ScriptedModel.of(ScriptedModel.toolCall("db"), ScriptedModel.text("done"));
    await runToolLoop({ model, prompt, tools });
    const [first, second] = model.requests;
    expect(JSON.stringify(second?.tools[0])).toBe(JSON.stringify(first?.tools[0]));
    expect(JSON.stringify(second?.tools[2])).toBe(JSON.stringify(first?.tools[2]));
    expect(second?.tools[0]).toBe(first?.tools[0]);
  });

  it("offers only the unfolded tools after an exclusive unfolding", async () => {
    const tools = [echo("alpha"), facade("db", { tools: [echo("q")], exclusive: true })];
    const model = ScriptedModel.of(ScriptedModel.toolCall("db"), ScriptedModel.text("done"));
    await runToolLoop({ model, prompt, tools });
    expect(model.toolNamesPerRequest[1]).toEqual(["q"]);
  });

  it("unfolds nested facades level by level", async () => {
    const leaf = echo("leaf");
    const inner = facade("inner", { tools: [leaf], exclusive: false });
    const outer = facade("outer", { tools: [inner], exclusive: false });
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("outer"),
      ScriptedModel.toolCall("inner"),
      ScriptedModel.toolCall("leaf"),
      ScriptedModel.text("done"),
    );
    const result = await runToolLoop({ model, prompt, tools: [outer] });
    expect(model.toolNamesPerRequest).toEqual([["outer"], ["inner"], ["leaf"], ["leaf"]]);
    expect(names(result.injectedTools)).toEqual(["inner", "leaf"]);
    expect(names(result.removedTools)).toEqual(["outer", "inner"]);
  });

  it("decorates injected tools with toolDecorator", async () => {
    const decorate = (tool: Tool) => tool.withNote("traced");
    const model = ScriptedModel.of(ScriptedModel.toolCall("db"), ScriptedModel.text("done"));
    await runToolLoop({
      model,
      prompt,
      tools: [facade("db", { tools: [echo("q")], exclusive: false })],
      toolDecorator: decorate,
    });
    expect(model.requests[1]?.tools.map((tool) => tool.description)).toEqual(["The q tool. traced"]);
  });

  it("emits a tools-changed event", async () => {
    const events: ToolLoopEvent[] = [];
    const model = ScriptedModel.of(ScriptedModel.toolCall("db"), ScriptedModel.text("done"));
    await runToolLoop({
      model,
      prompt,
      tools: [facade("db", { tools: [echo("q")], exclusive: false })],
      onEvent: (event) => events.push(event),
    });
    expect(events.find((event) => event.type === "tools-changed")).toMatchObject({
      added: ["q"],
      removed: ["db"],
    });
  });

  it("emits tools-changed for a change that only adds and for one that only removes", async () => {
    const events: ToolLoopEvent[] = [];
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("grow"),
      ScriptedModel.toolCall("shrink"),
      ScriptedModel.text("done"),
    );
    const strategy: Strategy = {
      evaluate: ({ lastToolCall }) =>
        lastToolCall?.toolName === "grow"
          ? ToolInjectionResult.add(echo("extra"))
          : ToolInjectionResult.remove("grow"),
    };
    await runToolLoop({
      model,
      prompt,
      tools: [echo("grow"), echo("shrink")],
      injectionStrategy: strategy,
      onEvent: (event) => events.push(event),
    });
    expect(events.filter((event) => event.type === "tools-changed")).toEqual([
      expect.objectContaining({ added: ["extra"], removed: [] }),
      expect.objectContaining({ added: [], removed: ["grow"] }),
    ]);
    expect(model.toolNamesPerRequest).toEqual([
      ["grow", "shrink"],
      ["grow", "shrink", "extra"],
      ["shrink", "extra"],
    ]);
  });

  it("uses the given strategy instead of the default", async () => {
    const model = ScriptedModel.of(ScriptedModel.toolCall("db"), ScriptedModel.text("done"));
    await runToolLoop({
      model,
      prompt,
      tools: [facade("db", { tools: [echo("q")], exclusive: false })],
      injectionStrategy: ToolInjectionStrategy.NONE,
    });
    expect(model.toolNamesPerRequest[1]).toEqual(["db"]);
  });

  it("shows a strategy the loop context, the iteration and the call", async () => {
    const seen: ToolInjectionContext[] = [];
    const model = ScriptedModel.of(ScriptedModel.toolCall("a", { x: 1 }), ScriptedModel.text("done"));
    const result = await runToolLoop({
      model,
      prompt,
      tools: [echo("a")],
      injectionStrategy: { evaluate: (context) => void seen.push(context) },
    });
    expect(seen[0]?.lastToolCall).toMatchObject({
      toolName: "a",
      toolInput: '{"x":1}',
      result: { content: "a done" },
    });
    expect(seen[0]?.iteration).toBe(1);
    expect(seen[0]?.context.loopId()).toBe(result.loopId);
  });
});

describe("ToolInjectionResult", () => {
  it("builds changes and says no change for empty input", () => {
    const tool = echo("a");
    expect(ToolInjectionResult.add(tool)).toEqual({ add: [tool] });
    expect(ToolInjectionResult.add()).toBeUndefined();
    expect(ToolInjectionResult.remove("a")).toEqual({ remove: ["a"] });
    expect(ToolInjectionResult.replace(tool)).toEqual({ replace: [tool] });
  });

  it("tells whether a result changes anything", () => {
    expect(ToolInjectionResult.hasChanges(undefined)).toBe(false);
    expect(ToolInjectionResult.hasChanges({ add: [] })).toBe(false);
    expect(ToolInjectionResult.hasChanges({ remove: ["a"] })).toBe(true);
  });
});
