import { describe, expect, it } from "vitest";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { AgentProcess } from "../platform/agent-process.js";
import { ListOutputChannel } from "../platform/output-channel.js";
import { ProcessOptions } from "../platform/process-options.js";
import { Verbosity } from "../platform/verbosity.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { childProcessOptions, withCallContext } from "./child-process-options.js";

/** The process `fn` runs in, with `options`. */
async function processWith(options: ProcessOptions): Promise<AgentProcess> {
  const platform = AgentPlatform.create({ name: "test", models: { main: new ScriptedModel() } });
  let current: AgentProcess | undefined;
  await platform.runInProcess(
    (context) => {
      current = context.process;
    },
    { processOptions: options },
  );
  return current as AgentProcess;
}

const callContext = ToolCallContext.of({ requestId: "r-1", [ToolCallContext.LOOP_ID_KEY]: "outer-loop" });

describe("childProcessOptions", () => {
  it("keeps the parent's verbosity object, listeners, output channel and context id, on a spawned blackboard", async () => {
    const verbosity = new Verbosity().withShowPrompts(true).withShowLlmResponses(true);
    const channel = new ListOutputChannel();
    const parentOptions = ProcessOptions.DEFAULT.withVerbosity(verbosity)
      .withOutputChannel(channel)
      .withContextId("conversation-7")
      .withListener(() => {});
    const parent = await processWith(parentOptions);
    const options = childProcessOptions(parent, ToolCallContext.EMPTY);
    expect(options.verbosity).toBe(verbosity);
    expect(options.listeners).toEqual(parentOptions.listeners);
    expect(options.outputChannel).toBe(channel);
    expect(options.contextId).toBe("conversation-7");
    expect(options.blackboard?.parent).toBe(parent.blackboard);
  });

  it("keeps a quiet parent's DEFAULT verbosity", async () => {
    const parent = await processWith(ProcessOptions.DEFAULT);
    expect(childProcessOptions(parent, ToolCallContext.EMPTY).verbosity).toBe(Verbosity.DEFAULT);
  });

  it("merges the calling tool's context over the parent's, without the calling loop's id", async () => {
    const parent = await processWith(
      ProcessOptions.DEFAULT.withToolCallContext({ tenant: "acme", requestId: "r-0" }),
    );
    expect(childProcessOptions(parent, callContext).toolCallContext.toRecord()).toEqual({
      tenant: "acme",
      requestId: "r-1",
    });
  });
});

describe("withCallContext", () => {
  it("returns the options themselves for an empty call context", () => {
    const options = ProcessOptions.DEFAULT.withContextId("c");
    expect(withCallContext(options, ToolCallContext.EMPTY)).toBe(options);
  });

  it("adds the call's entries except the loop id, keeping the rest of the options", () => {
    const options = ProcessOptions.DEFAULT.withContextId("c").withToolCallContext({ tenant: "acme" });
    const merged = withCallContext(options, callContext);
    expect(merged.toolCallContext.toRecord()).toEqual({ tenant: "acme", requestId: "r-1" });
    expect(merged.contextId).toBe("c");
  });
});
