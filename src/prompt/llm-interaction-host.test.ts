import { describe, expect, it } from "vitest";
import { AmbientProcess } from "../tool/ambient-process.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { LlmInteractionHost } from "./llm-interaction-host.js";

function host(): LlmInteractionHost & AmbientProcess {
  return {
    id: "p1",
    blackboard: { add: (value: unknown) => value },
    toolCallContext: ToolCallContext.of({ tenantId: "acme" }),
    onLoopEvent: () => {},
    beforeLlmCall: () => {},
    recordLlmCall: () => {},
  };
}

describe("LlmInteractionHost", () => {
  it("is undefined outside a process", () => {
    expect(LlmInteractionHost.current()).toBeUndefined();
  });

  it("is the current process when it implements the interface", () => {
    const process = host();
    expect(AmbientProcess.run(process, () => LlmInteractionHost.current())).toBe(process);
  });

  it("is undefined when the current process does not implement the interface", () => {
    const bare: AmbientProcess = { id: "p2", blackboard: { add: (value: unknown) => value } };
    expect(AmbientProcess.run(bare, () => LlmInteractionHost.current())).toBeUndefined();
  });

  it("recognises hosts by shape", () => {
    expect(LlmInteractionHost.isLlmInteractionHost(host())).toBe(true);
    expect(LlmInteractionHost.isLlmInteractionHost({ toolCallContext: ToolCallContext.EMPTY })).toBe(false);
  });
});
