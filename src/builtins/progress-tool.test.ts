import { describe, expect, it } from "vitest";
import { callInProcess, failingChannel } from "../../test/support/call-in-process.js";
import { captureLogs } from "../../test/support/captured-logs.js";
import { ListOutputChannel } from "../platform/output-channel.js";
import { ProgressTool } from "./progress-tool.js";

describe("ProgressTool.create", () => {
  const progress = ProgressTool.create();

  it("is the progress tool with the specification's description and required status parameter", () => {
    expect(ProgressTool.NAME).toBe("progress");
    expect(progress.definition.name).toBe("progress");
    expect(progress.definition.description).toBe(
      "Report progress to the user. Call this during long-running work to show what you're doing.",
    );
    expect(progress.definition.inputSchema.jsonSchema).toMatchObject({
      properties: {
        status: {
          type: "string",
          description: "Short progress message describing what you're currently doing",
        },
      },
      required: ["status"],
    });
  });

  it("sends a progress event to the process's output channel", async () => {
    const channel = new ListOutputChannel();
    const { process, result } = await callInProcess(progress, '{"status":"Searching the archive"}', channel);
    expect(result).toMatchObject({ kind: "text", content: "Progress reported: Searching the archive" });
    expect(channel.events).toEqual([
      { type: "progress", processId: process.id, message: "Searching the archive" },
    ]);
  });

  it("answers softly outside a process, with a warning through the logger", async () => {
    const logs = captureLogs();
    const result = await progress.call('{"status":"working"}').finally(() => logs.restore());
    expect(result).toMatchObject({
      kind: "text",
      content: "Progress noted (no active process to display it).",
    });
    expect(logs.lines).toEqual([
      "warn: progress tool called outside of an agent process — ignoring: working",
    ]);
  });

  it("is an error without a status, in or out of a process; nothing is sent", async () => {
    const channel = new ListOutputChannel();
    for (const input of ["{}", '{"other":"x"}', "", "{bad json", '{"status":null}']) {
      const { result } = await callInProcess(progress, input, channel);
      expect(result).toMatchObject({ kind: "error", content: "Missing 'status' parameter" });
      expect(await progress.call(input)).toMatchObject({
        kind: "error",
        content: "Missing 'status' parameter",
      });
    }
    expect(channel.events).toEqual([]);
  });

  it("fails the call when the channel fails", async () => {
    const { process } = await callInProcess(progress, '{"status":"x"}', failingChannel);
    expect(process.status).toBe("failed");
    expect((process.failure as Error).message).toBe("channel unavailable");
  });
});
