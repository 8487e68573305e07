import { describe, expect, it } from "vitest";
import { runToolLoop } from "../loop/tool-loop.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import { UnfoldingTool } from "./unfolding-tool.js";

const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "Start the job" }] }];

function tools() {
  const start = Tool.create("start_job", "Starts the job", ToolMetadata.create({ returnDirect: true }), () =>
    ToolResult.text("Job started in background"),
  );
  const status = Tool.create("job_status", "Job status", () => ToolResult.text("idle"));
  return UnfoldingTool.of("jobs", "Job operations. Invoke to see them.", [start, status]);
}

describe("shortcut dispatch to a returnDirect tool", () => {
  it("ends the loop with that tool's result when reached through the facade", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("jobs", { start_job: {} }),
      ScriptedModel.text("this reply must never be requested"),
    ]);

    const result = await runToolLoop({ model, prompt, tools: [tools()] });

    expect(result.text).toBe("Job started in background");
    expect(result.returnedDirect).toBe(true);
    expect(model.requests).toHaveLength(1);
  });

  it("ends the loop when reached through the guide of an unfolded facade", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("jobs", {}),
      ScriptedModel.toolCall("jobs", { start_job: {} }),
      ScriptedModel.text("this reply must never be requested"),
    ]);

    const result = await runToolLoop({ model, prompt, tools: [tools()] });

    expect(result.text).toBe("Job started in background");
    expect(result.returnedDirect).toBe(true);
    expect(model.requests).toHaveLength(2);
  });

  it("does not end the loop for an ordinary inner tool", async () => {
    const model = new ScriptedModel([
      ScriptedModel.toolCall("jobs", { job_status: {} }),
      ScriptedModel.text("The job is idle."),
    ]);

    const result = await runToolLoop({ model, prompt, tools: [tools()] });

    expect(result.text).toBe("The job is idle.");
    expect(result.returnedDirect).toBe(false);
  });

  it("ends the loop in a parallel round whose shortcut call had its arguments coerced", async () => {
    const jobs = tools();
    const facade = UnfoldingTool.selectable(
      "jobs",
      "Job operations",
      jobs.innerTools,
      InputSchema.of(Param.integer("priority", "The priority", { required: false })),
      () => jobs.innerTools,
    );
    const model = new ScriptedModel([
      // Two calls of the facade: the first's priority arrives as a string and is coerced to a number.
      ScriptedModel.toolCalls([
        { name: "jobs", args: { priority: "2", start_job: {} } },
        { name: "jobs", args: { job_status: {} } },
      ]),
      ScriptedModel.text("this reply must never be requested"),
    ]);

    const result = await runToolLoop({ model, prompt, tools: [facade], parallelToolCalls: true });

    expect(result.text).toBe("Job started in background");
    expect(result.returnedDirect).toBe(true);
  });
});
