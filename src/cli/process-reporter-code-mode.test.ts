import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CodeModeTool } from "../codemode/code-mode-tool.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { defineAgent } from "../platform/define-agent.js";
import type { AgentProcessEvent } from "../platform/process-event.js";
import { ProcessOptions } from "../platform/process-options.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { domainType } from "../tool/type-token.js";
import { parseTrace } from "../trace/read-trace.js";
import { TraceRecorder } from "../trace/trace-recorder.js";
import { TraceSink } from "../trace/trace-sink.js";
import { type ProcessNode, type TraceNode, TraceTree } from "../trace/trace-tree.js";
import { renderTrace } from "./process-reporter.js";

const Ticket = domainType("Ticket", z.object({ text: z.string() }));
const Reply = domainType("Reply", z.object({ text: z.string() }));

const PROGRAM = `const a = await tools.get_order({ id: 1 });
const b = await tools.get_order({ id: 2 });
try { await tools.refusing({}); } catch {}
return a.refund + b.refund;`;

/** Runs a code call of three inner calls in an agent process, recording its events and its trace. */
async function run(observed: boolean) {
  const getOrder = Tool.fromFunction(
    "get_order",
    "Looks up an order",
    z.object({ id: z.number().int() }),
    z.object({ id: z.number(), refund: z.number() }),
    async ({ id }) => ({ id, refund: id * 10 }),
  );
  const refusing = Tool.create("refusing", "Refuses", () => ToolResult.error("not allowed"));
  const code = CodeModeTool.of("run_code", "Order desk.", [getOrder, refusing]);
  const model = new ScriptedModel([
    ScriptedModel.toolCall("run_code", { code: PROGRAM }, { id: "c1" }),
    ScriptedModel.text("Done."),
  ]);
  const agent = defineAgent({
    name: "Desk",
    description: "Answers tickets",
    actions: [
      {
        name: "answer",
        input: Ticket,
        output: Reply,
        achievesGoal: { description: "Answered" },
        run: async (ticket, context) => ({
          text: await context.ai().withTools([code]).generateText(ticket.text),
        }),
      },
    ],
  });
  const events: AgentProcessEvent[] = [];
  const lines: string[] = [];
  const recorder = new TraceRecorder(TraceSink.lines((line) => lines.push(line)));
  const processOptions = observed
    ? recorder.attach(ProcessOptions.DEFAULT).withListener((event) => events.push(event))
    : ProcessOptions.DEFAULT;
  const platform = AgentPlatform.create({ models: { main: model } });
  const process = await platform.runAgent(agent, Ticket.create({ text: "Sum orders 1 and 2" }), {
    processOptions,
  });
  return { process, events, trace: parseTrace(lines.join("\n")) };
}

describe("code mode's inner calls in the CLI tree and the trace", () => {
  it("prints each inner call, with its result, indented under the code call", async () => {
    const { process, events } = await run(true);
    expect(process.status).toBe("completed");
    const lines = renderTrace(events).split("\n");
    const code = lines.findIndex((line) => line.startsWith("  ⚙ run_code "));
    expect(code).toBeGreaterThan(0);
    expect(lines.slice(code + 1, code + 8).map((line) => line.replace(/ \(.*\)$/, ""))).toEqual([
      '    ⚙ get_order {"id":1}',
      '      ↳ {"id":1,"refund":10}',
      '    ⚙ get_order {"id":2}',
      '      ↳ {"id":2,"refund":20}',
      "    ⚙ refusing {}",
      "      ↳ error: not allowed",
      "    ↳ 30",
    ]);
    // Inner calls are tool calls of the run: counted in the summary and the process's tool stats.
    expect(lines.at(-1)).toContain(" · 4 tool calls · ");
    expect(process.toolStats.get("get_order")).toMatchObject({ calls: 2, failures: 0 });
  });

  it("nests the inner calls under the code call's node in the studio's tree, results included", async () => {
    const { trace } = await run(true);
    const view = new TraceTree(trace).view();
    const tools: TraceNode[] = [];
    const walk = (nodes: readonly TraceNode[]) => {
      for (const node of nodes) {
        if (node.kind === "tool") tools.push(node);
        if ("children" in node) walk(node.children);
      }
    };
    walk((view.roots[0] as ProcessNode).children);
    const codeCall = tools.find((node) => node.kind === "tool" && node.name === "run_code");
    expect(codeCall?.kind).toBe("tool");
    const inner = codeCall?.kind === "tool" ? codeCall.children : [];
    expect(
      inner.map((node) => (node.kind === "tool" ? [node.name, node.input, node.result?.content] : node.kind)),
    ).toEqual([
      ["get_order", '{"id":1}', '{"id":1,"refund":10}'],
      ["get_order", '{"id":2}', '{"id":2,"refund":20}'],
      ["refusing", "{}", "not allowed"],
    ]);
    expect(view.totals.toolCalls).toBe(4);
  });

  it("shows an approval-gated inner call waiting, then run on resume, each under its code call", async () => {
    const refund = Tool.requireApproval(
      Tool.fromFunction(
        "refund",
        "Refunds",
        z.object({ id: z.number() }),
        z.string(),
        async ({ id }) => `refunded ${id}`,
      ),
      { message: "Refund?" },
    );
    const code = CodeModeTool.of("run_code", "", [refund]);
    const model = new ScriptedModel([
      ScriptedModel.toolCall("run_code", { code: "return await tools.refund({ id: 3 });" }, { id: "c1" }),
      ScriptedModel.text("Done."),
    ]);
    const agent = defineAgent({
      name: "Desk",
      description: "Refunds",
      actions: [
        {
          name: "answer",
          input: Ticket,
          output: Reply,
          achievesGoal: { description: "Answered" },
          run: async (ticket, context) => ({
            text: await context.ai().withTools([code]).generateText(ticket.text),
          }),
        },
      ],
    });
    const events: AgentProcessEvent[] = [];
    const platform = AgentPlatform.create({ models: { main: model } });
    const waiting = await platform.runAgent(agent, Ticket.create({ text: "Refund 3" }), {
      processOptions: ProcessOptions.DEFAULT.withListener((event) => events.push(event)),
    });
    expect(waiting.status).toBe("waiting");
    const done = await platform.respond(waiting.id, "r1", { approved: true }, { respondent: "test" });
    expect(done.status).toBe("completed");
    const lines = renderTrace(events)
      .split("\n")
      .map((line) => line.replace(/ \(.*\)$/, ""));
    const calls = lines.filter((line) => /^ *(⚙|↳)/.test(line));
    expect(calls).toEqual([
      '  ⚙ run_code {"code":"return await tools.refund({ id: 3 });"}',
      '    ⚙ refund {"id":3}',
      "      ↳ error: This call is waiting for a person's approval.",
      // The action stops for the person; on resume the program runs again, and the approved call runs.
      '  ⚙ run_code {"code":"return await tools.refund({ id: 3 });"}',
      '    ⚙ refund {"id":3}',
      "      ↳ refunded 3",
      "    ↳ refunded 3",
    ]);
  });

  it("builds no events when nothing observes the process, and the tool stats still count the inner calls", async () => {
    const { process, events } = await run(false);
    expect(process.status).toBe("completed");
    expect(events).toEqual([]);
    expect(process.toolStats.get("get_order")).toMatchObject({ calls: 2 });
  });
});
