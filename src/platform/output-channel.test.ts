import { describe, expect, it } from "vitest";
import {
  ConsoleOutputChannel,
  formatOutputEvent,
  ListOutputChannel,
  OutputChannel,
} from "./output-channel.js";

const progress = { type: "progress", processId: "12345678-abcd", message: "Searching" } as const;

describe("ListOutputChannel", () => {
  it("keeps every event and lists messages by type", () => {
    const channel = new ListOutputChannel();
    channel.send(progress);
    channel.send({ type: "message", processId: "p", message: { role: "assistant", content: "Done" } });
    expect(channel.events).toHaveLength(2);
    expect(channel.messages()).toEqual(["Searching"]);
    expect(channel.messages("message")).toEqual(["Done"]);
  });
});

describe("ConsoleOutputChannel", () => {
  it("writes one line per event", () => {
    const lines: string[] = [];
    new ConsoleOutputChannel({ write: (line) => lines.push(line) }).send(progress);
    expect(lines).toEqual(["[12345678] Searching"]);
  });
});

describe("formatOutputEvent", () => {
  it("formats logging and content events", () => {
    expect(formatOutputEvent({ type: "logging", processId: "p", level: "warn", message: "careful" })).toBe(
      "[p] WARN careful",
    );
    expect(formatOutputEvent({ type: "content", processId: "p", content: { a: 1 } })).toBe('[p] {"a":1}');
  });
});

describe("OutputChannel", () => {
  it("multicasts to every channel and drops DEV_NULL", async () => {
    const a = new ListOutputChannel();
    const b = new ListOutputChannel();
    expect(OutputChannel.multicast(OutputChannel.DEV_NULL, a)).toBe(a);
    expect(OutputChannel.multicast(OutputChannel.DEV_NULL)).toBe(OutputChannel.DEV_NULL);
    await OutputChannel.multicast(a, b).send(progress);
    expect(a.events).toEqual([progress]);
    expect(b.events).toEqual([progress]);
  });

  it("delivers to the other channels, then fails, when one channel fails", async () => {
    const good = new ListOutputChannel();
    const bad: OutputChannel = {
      send: () => {
        throw new Error("socket closed");
      },
    };
    await expect(OutputChannel.multicast(bad, good).send(progress)).rejects.toThrow("socket closed");
    expect(good.events).toEqual([progress]);
  });
});
