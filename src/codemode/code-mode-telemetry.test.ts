import { describe, expect, it } from "vitest";
import { installRecordingTracer } from "../../test/support/recording-tracer.js";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/index.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { CodeModeTool } from "./code-mode-tool.js";

const spans = installRecordingTracer();

describe("code mode's OpenTelemetry spans", () => {
  it("nests each inner call's span under the code call's span, with its own call key and status", async () => {
    spans.length = 0;
    const echo = Tool.create("echo", "Echoes", (input) => ToolResult.text(input));
    const refusing = Tool.create("refusing", "Refuses", () => ToolResult.error("not allowed"));
    const code = CodeModeTool.of("run_code", "", [echo, refusing]);
    const model = ScriptedModel.of(
      ScriptedModel.toolCall(
        "run_code",
        { code: "await tools.echo({ a: 1 }); try { await tools.refusing({}); } catch {} return 1;" },
        { id: "c1" },
      ),
      ScriptedModel.text("ok"),
    );
    await runToolLoop({ model, prompt: [], tools: [code] });
    const named = (name: string) => spans.find((span) => span.name === name);
    const outer = named("execute_tool run_code");
    expect(named("execute_tool echo")?.parent).toBe(outer);
    expect(named("execute_tool refusing")?.parent).toBe(outer);
    expect(named("execute_tool echo")?.attributes["gen_ai.tool.call.id"]).toMatch(/\/0$/);
    expect(named("execute_tool refusing")?.status?.message).toBe("not allowed");
    expect(spans.every((span) => span.ended)).toBe(true);
  });
});
