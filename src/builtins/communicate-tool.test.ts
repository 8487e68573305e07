import { describe, expect, it } from "vitest";
import { callInProcess, failingChannel } from "../../test/support/call-in-process.js";
import { captureLogs } from "../../test/support/captured-logs.js";
import { ListOutputChannel } from "../platform/output-channel.js";
import { CommunicateTool, EMPTY_MESSAGE } from "./communicate-tool.js";

describe("CommunicateTool.create", () => {
  const communicate = CommunicateTool.create();

  it("is the communicate tool with the specification's description and required message parameter", () => {
    expect(CommunicateTool.NAME).toBe("communicate");
    expect(communicate.definition.description).toBe(
      "Send a permanent message to the user. Use this to report results, share links (e.g., PR URLs), or inform the user of important outcomes. Unlike progress, this creates a visible chat message.",
    );
    expect(communicate.definition.inputSchema.jsonSchema).toMatchObject({
      properties: { message: { type: "string", description: "The message to send to the user" } },
      required: ["message"],
    });
  });

  it("sends an assistant message to the process's output channel", async () => {
    const channel = new ListOutputChannel();
    const { process, result } = await callInProcess(
      communicate,
      '{"message":"PR opened: https://example.com/pr/1"}',
      channel,
    );
    expect(result).toMatchObject({ kind: "text", content: "Message sent to user." });
    expect(channel.events).toEqual([
      {
        type: "message",
        processId: process.id,
        message: { role: "assistant", content: "PR opened: https://example.com/pr/1" },
      },
    ]);
  });

  it("answers softly outside a process, with a warning through the logger", async () => {
    const logs = captureLogs();
    const result = await communicate.call('{"message":"done"}').finally(() => logs.restore());
    expect(result).toMatchObject({
      kind: "text",
      content: "Message noted (no active process to deliver it).",
    });
    expect(logs.lines).toEqual([
      "warn: communicate tool called outside of an agent process — ignoring: done",
    ]);
  });

  it("is an error without a message; nothing is sent", async () => {
    const channel = new ListOutputChannel();
    const { result } = await callInProcess(communicate, '{"other":"x"}', channel);
    expect(result).toMatchObject({ kind: "error", content: "Missing 'message' parameter" });
    expect(channel.events).toEqual([]);
  });

  it("refuses an empty message in a process and sends nothing", async () => {
    const channel = new ListOutputChannel();
    for (const input of ['{"message":""}', '{"message":"  \\n "}']) {
      const { result } = await callInProcess(communicate, input, channel);
      expect(result).toMatchObject({ kind: "error", content: EMPTY_MESSAGE });
    }
    expect(channel.events).toEqual([]);
  });

  it("fails the call when the channel fails, never reporting the message as sent", async () => {
    const { process } = await callInProcess(communicate, '{"message":"hello"}', failingChannel);
    expect(process.status).toBe("failed");
    expect((process.failure as Error).message).toBe("channel unavailable");
    expect(process.result).toBeUndefined();
  });
});
