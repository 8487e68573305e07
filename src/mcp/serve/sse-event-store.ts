import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

/**
 * One session's SSE events, kept so a client whose stream was closed can
 * resume it with `Last-Event-ID` (resumable streams of MCP 2025-11-25,
 * SEP-1699): the last `maxEvents` events of all the session's streams, in
 * memory (the oldest are dropped first, so a client that comes back too late
 * resumes from nothing). Event ids are `<stream id>_<sequence>`.
 */
export class SseEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  private sequence = 0;

  constructor(private readonly maxEvents: number) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.sequence += 1;
    const eventId = `${streamId}_${this.sequence}`;
    this.events.set(eventId, { streamId, message });
    while (this.events.size > this.maxEvents) {
      const oldest = this.events.keys().next().value as string;
      this.events.delete(oldest);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  /** Sends the events of `lastEventId`'s stream stored after it (not priming events); "" for an id no longer kept. */
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId);
    if (!last) return "";
    let after = false;
    for (const [eventId, event] of this.events) {
      if (eventId === lastEventId) after = true;
      else if (after && event.streamId === last.streamId && Object.keys(event.message).length > 0) {
        await send(eventId, event.message);
      }
    }
    return last.streamId;
  }
}
