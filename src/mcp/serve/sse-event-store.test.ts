import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { SseEventStore } from "./sse-event-store.js";

const message = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });

async function replay(store: SseEventStore, lastEventId: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(lastEventId, {
    send: async (eventId, sentMessage) => {
      sent.push([eventId, sentMessage]);
    },
  });
  return { stream, sent };
}

describe("SseEventStore", () => {
  it("replays the events of the last event's stream after it, skipping priming events and other streams", async () => {
    const store = new SseEventStore(10);
    const priming = await store.storeEvent("a", {} as JSONRPCMessage);
    await store.storeEvent("b", message(9));
    const first = await store.storeEvent("a", message(1));
    await store.storeEvent("a", {} as JSONRPCMessage);
    const second = await store.storeEvent("a", message(2));
    expect(await replay(store, priming)).toEqual({
      stream: "a",
      sent: [
        [first, message(1)],
        [second, message(2)],
      ],
    });
    expect(await store.getStreamIdForEventId(first)).toBe("a");
  });

  it("keeps only the last maxEvents: an id dropped since replays nothing", async () => {
    const store = new SseEventStore(2);
    const dropped = await store.storeEvent("a", message(1));
    const kept = await store.storeEvent("a", message(2));
    const last = await store.storeEvent("a", message(3));
    expect(await replay(store, dropped)).toEqual({ stream: "", sent: [] });
    expect(await store.getStreamIdForEventId(dropped)).toBeUndefined();
    expect(await replay(store, kept)).toEqual({ stream: "a", sent: [[last, message(3)]] });
  });
});
