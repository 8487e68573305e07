import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runToolLoop } from "../loop/tool-loop.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { CodeModeTool } from "./code-mode-tool.js";

const prompt: LanguageModelV3Prompt = [
  { role: "user", content: [{ type: "text", text: "Sum the refunds over 50 for orders 1 to 20." }] },
];

/** Orders 1..20: order n refunds n * 7 (so the ones over 50 are 8..20). */
function orderTools(calls: number[] = []) {
  const getOrder = Tool.fromFunction(
    "get_order",
    "Looks up one order by id",
    z.object({ id: z.number().int().describe("The order id") }),
    z.object({ id: z.number(), customer: z.string(), refund: z.number(), items: z.array(z.string()) }),
    async ({ id }) => {
      calls.push(id);
      if (id < 1 || id > 20) throw new Error(`no order ${id}`);
      return { id, customer: `customer-${id}`, refund: id * 7, items: ["a", "b"] };
    },
  );
  return { getOrder, calls };
}

const SUM_PROGRAM = `const ids = Array.from({ length: 20 }, (_, i) => i + 1);
const orders = await Promise.all(ids.map((id) => tools.get_order({ id })));
const big = orders.filter((o) => o.refund > 50);
return { count: big.length, total: big.reduce((s, o) => s + o.refund, 0) };`;

async function runCode(tool: CodeModeTool, code: string): Promise<ToolResult> {
  return tool.call(JSON.stringify({ code }));
}

describe("CodeModeTool", () => {
  it("runs the 20-order aggregation in one call and returns only the sum to the model", async () => {
    const { getOrder, calls } = orderTools();
    const tool = CodeModeTool.of("run_code", "Works with orders.", [getOrder]);
    const model = ScriptedModel.of(
      ScriptedModel.toolCall("run_code", { code: SUM_PROGRAM }),
      ScriptedModel.text("13 orders refund 1274 in total."),
    );
    const result = await runToolLoop({ model, prompt, tools: [tool] });
    expect(result.text).toBe("13 orders refund 1274 in total.");
    expect(calls.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(model.requests).toHaveLength(2);
    const output = model.requests[1]?.toolResults[0]?.output;
    expect(output).toEqual({ type: "text", value: '{"count":13,"total":1274}' });
  });

  it("declares the inner tools in TypeScript in its description", () => {
    const { getOrder } = orderTools();
    const tool = CodeModeTool.of("run_code", "Works with orders.", [getOrder]);
    expect(tool.definition.description).toContain("Works with orders.");
    expect(tool.definition.description).toContain("declare const tools: {");
    expect(tool.definition.description).toContain("/** Looks up one order by id */");
    expect(tool.definition.description).toContain(
      "get_order(args: { /** The order id */ id: number }): Promise<unknown>;",
    );
    expect(tool.definition.inputSchema.jsonSchema).toMatchObject({ required: ["code"] });
  });

  it("opens a facade to its inner tools", async () => {
    const add = Tool.fromFunction(
      "add",
      "Adds",
      z.object({ a: z.number(), b: z.number() }),
      z.number(),
      async ({ a, b }) => a + b,
    );
    const math = UnfoldingTool.of("math", "Math operations", [add]);
    const tool = CodeModeTool.of("run_code", "", [math]);
    expect([...tool.callable.keys()]).toEqual(["add"]);
    const result = await runCode(tool, "return await tools.add({ a: 2, b: 3 }) * 10;");
    expect(result).toMatchObject({ kind: "text", content: "50" });
  });

  it("searchable: a search + execute pair over 2,000 tools declares none up front", async () => {
    const catalogue = Array.from({ length: 2000 }, (_, n) =>
      Tool.fromFunction(
        `service${n}_lookup`,
        n === 1234
          ? "Converts a temperature from celsius to fahrenheit"
          : `Looks up record kind ${n} in service ${n}`,
        z.object({ value: z.number() }),
        z.number(),
        async ({ value }) => value * 1.8 + 32,
      ),
    );
    const [search, code] = CodeModeTool.searchable("catalogue", "A big catalogue.", catalogue);
    expect(search.definition.description.length + code.definition.description.length).toBeLessThan(1500);
    const found = await search.call(JSON.stringify({ query: "convert celsius to fahrenheit", limit: 1 }));
    expect(found.content).toBe(
      "declare const tools: {\n  /** Converts a temperature from celsius to fahrenheit */\n  service1234_lookup(args: { value: number }): Promise<unknown>;\n};",
    );
    expect((await runCode(code, "return await tools.service1234_lookup({ value: 100 });")).content).toBe(
      "212",
    );
    expect(await search.call("{}")).toMatchObject({ kind: "error" });
  });

  it("returns console.log lines before the result", async () => {
    const tool = CodeModeTool.of("run_code", "", []);
    const result = await runCode(tool, 'console.log("hello", { a: 1 });\nreturn "done";');
    expect(result.content).toBe('hello {"a":1}\ndone');
  });

  describe("errors the model can fix", () => {
    it("a syntax error names the line in the model's own numbering", async () => {
      const tool = CodeModeTool.of("run_code", "", []);
      const result = await runCode(tool, "const a = 1;\nconst b = a +* 2;\nreturn b;");
      expect(result.kind).toBe("error");
      expect(result.content).toMatch(/^SyntaxError at line 2:\d+: .+fix the syntax and call again\.$/);
    });

    it("a thrown error names the line and column", async () => {
      const tool = CodeModeTool.of("run_code", "", []);
      const result = await runCode(tool, "const a = null;\n\nreturn a.missing;");
      expect(result).toMatchObject({ kind: "error" });
      expect(result.content).toMatch(
        /^The program threw TypeError at line 3:\d+: cannot read property 'missing' of null\. Fix the code/,
      );
    });

    it("an unknown tool lists the tools there are", async () => {
      const { getOrder } = orderTools();
      const tool = CodeModeTool.of("run_code", "", [getOrder]);
      const result = await runCode(tool, "\nreturn await tools.get_orders({ id: 1 });");
      expect(result.content).toBe(
        "A tool call failed at line 2:30: There is no tool 'get_orders'. Call one of: get_order. Fix the call, or catch the error in the program.",
      );
    });

    it("bad arguments are refused by the gate before the tool runs, and the program can catch it", async () => {
      const { getOrder, calls } = orderTools();
      const tool = CodeModeTool.of("run_code", "", [getOrder]);
      const failed = await runCode(tool, 'return await tools.get_order({ id: "seven" });');
      expect(failed.kind).toBe("error");
      expect(failed.content).toMatch(/^A tool call failed at line 1:\d+: .*get_order.*id/);
      expect(calls).toEqual([]);
      const caught = await runCode(
        tool,
        'try { await tools.get_order({ id: "x" }); } catch (e) { return e.name; }',
      );
      expect(caught.content).toBe("ToolError");
    });

    it("a tool that throws is a catchable error naming the tool", async () => {
      const { getOrder } = orderTools();
      const tool = CodeModeTool.of("run_code", "", [getOrder]);
      const result = await runCode(
        tool,
        "try { await tools.get_order({ id: 99 }); } catch (e) { return e.message; }",
      );
      expect(result.content).toBe("no order 99");
    });

    it("an error result of a tool is a thrown error", async () => {
      const failing = Tool.create("failing", "Always fails", async () => ToolResult.error("quota exceeded"));
      const tool = CodeModeTool.of("run_code", "", [failing]);
      const result = await runCode(tool, "try { await tools.failing({}); } catch (e) { return e.message; }");
      expect(result.content).toBe("quota exceeded");
    });

    it("input that is not {code} is answered in-band", async () => {
      const tool = CodeModeTool.of("run_code", "", []);
      expect(await tool.call('{"source": "1"}')).toMatchObject({
        kind: "error",
        content: 'Call run_code with {"code": "<JavaScript>"}.',
      });
    });
  });

  describe("limits, each answered in-band", () => {
    it("time: an infinite loop is stopped at the deadline", async () => {
      const tool = CodeModeTool.of("run_code", "", [], { timeoutMs: 200 });
      const started = performance.now();
      const result = await runCode(tool, "while (true) {}");
      expect(performance.now() - started).toBeLessThan(5000);
      expect(result).toMatchObject({ kind: "error" });
      expect(result.content).toMatch(/^The program ran longer than its time limit of 200 ms/);
    });

    it("time: a slow inner tool counts against the deadline", async () => {
      const slow = Tool.create("slow", "Slow", async () => {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        return ToolResult.text("late");
      });
      const tool = CodeModeTool.of("run_code", "", [slow], { timeoutMs: 150 });
      const result = await runCode(tool, "return await tools.slow({});");
      expect(result.content).toMatch(/time limit of 150 ms/);
    });

    it("memory: typed arrays and strings cannot grow past the sandbox's own memory", async () => {
      const tool = CodeModeTool.of("run_code", "", [], { memoryBytes: 32 * 1024 * 1024, timeoutMs: 30_000 });
      const arrays = await runCode(tool, "const a = []; for (;;) a.push(new Float64Array(131072));");
      expect(arrays).toMatchObject({ kind: "error" });
      expect(arrays.content).toMatch(/^The program ran out of memory/);
      const strings = await runCode(
        tool,
        "let s = 'x'; const keep = []; for (;;) { s = s + s; keep.push(s + '!'); }",
      );
      expect(strings.kind).toBe("error");
      expect(strings.content).toMatch(/out of memory|string too long/);
      // A fresh program runs normally afterwards.
      expect((await runCode(tool, "return 1 + 1;")).content).toBe("2");
    }, 60_000);

    it("calls: the program is stopped after maxToolCalls", async () => {
      const { getOrder, calls } = orderTools();
      const tool = CodeModeTool.of("run_code", "", [getOrder], { maxToolCalls: 5 });
      const result = await runCode(
        tool,
        "for (let i = 1; i <= 20; i++) { try { await tools.get_order({ id: i }); } catch {} }\nreturn 'finished';",
      );
      expect(result.content).toMatch(/^The program made more than 5 tool calls, its limit, and was stopped/);
      expect(calls).toEqual([1, 2, 3, 4, 5]);
    });

    it("output: a result longer than maxOutputChars is refused with what to do", async () => {
      const tool = CodeModeTool.of("run_code", "", [], { maxOutputChars: 100 });
      const result = await runCode(tool, "return 'x'.repeat(101);");
      expect(result.content).toMatch(/longer than its limit of 100 characters\. Return a smaller result/);
      expect((await runCode(tool, "return 'x'.repeat(100);")).content).toBe("x".repeat(100));
    });

    it("code size and bad options", async () => {
      const tool = CodeModeTool.of("run_code", "", [], { maxCodeChars: 10 });
      expect((await runCode(tool, "return 12345678;")).content).toMatch(/over the limit of 10/);
      expect(() => CodeModeTool.of("run_code", "", [], { memoryBytes: 1024 })).toThrow(/at least 16777216/);
      expect(() => CodeModeTool.of("run_code", "", [], { timeoutMs: 0 })).toThrow(
        /timeoutMs must be a positive whole number/,
      );
    });
  });

  describe("a hostile program is contained", () => {
    it("has no require, process, fetch, timers, or host handles", async () => {
      const tool = CodeModeTool.of("run_code", "", []);
      const result = await runCode(
        tool,
        "return [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof __host, typeof std, typeof os, typeof WebAssembly].join(',');",
      );
      expect(result.content).toBe(
        "undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined",
      );
    });

    it("prototype tricks reach only the sandbox's own objects", async () => {
      const tool = CodeModeTool.of("run_code", "", []);
      const result = await runCode(
        tool,
        `const g = (function () { return this; })() ?? Function("return this")();
Object.prototype.polluted = 1;
const ctor = tools.constructor;
let escaped = "no";
try { escaped = typeof ctor.constructor("return process")(); } catch (e) { escaped = e.name; }
return [typeof g.process, escaped, typeof tools.then].join(",");`,
      );
      expect(result.content).toBe(
        "undefined,ToolError,undefined".replace("ToolError", result.content.split(",")[1] ?? ""),
      );
      expect(result.content.startsWith("undefined,")).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("a program awaiting a promise that never settles is told so", async () => {
      const tool = CodeModeTool.of("run_code", "", []);
      const result = await runCode(tool, "await new Promise(() => {});");
      expect(result.content).toMatch(/waiting on something that never settles/);
    });

    it("deep recursion is a stack overflow, not a crash", async () => {
      const tool = CodeModeTool.of("run_code", "", []);
      const result = await runCode(tool, "const f = (n) => f(n + 1) + 1; return f(0);");
      expect(result.kind).toBe("error");
      expect(result.content).toMatch(/stack/);
    });
  });
});
