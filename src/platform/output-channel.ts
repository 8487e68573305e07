import type { AssistantMessage } from "../prompt/message.js";

/** Severity of a {@link OutputChannelEvent} of type `logging`. */
export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";

/** What an agent process tells its user, as opposed to its listeners' event stream. */
export type OutputChannelEvent =
  | { readonly type: "progress"; readonly processId: string; readonly message: string }
  | { readonly type: "message"; readonly processId: string; readonly message: AssistantMessage }
  | { readonly type: "content"; readonly processId: string; readonly content: unknown }
  | {
      readonly type: "logging";
      readonly processId: string;
      readonly level: LogLevel;
      readonly message: string;
      readonly error?: unknown;
    };

/**
 * Where a process sends progress, messages and log lines for its user (a
 * terminal, a chat UI). A failing `send` fails the caller.
 */
export interface OutputChannel {
  /** Delivers one event. */
  send(event: OutputChannelEvent): void | Promise<void>;
}

/** A channel that keeps every event, in order (tests, transcripts). */
export class ListOutputChannel implements OutputChannel {
  /** The events received so far. */
  readonly events: OutputChannelEvent[] = [];

  send(event: OutputChannelEvent): void {
    this.events.push(event);
  }

  /** The messages of the events of `type`. */
  messages(type: "progress" | "message" | "logging" = "progress"): string[] {
    return this.events.flatMap((event) => {
      if (event.type !== type) return [];
      if (event.type === "message") return [event.message.content];
      if (event.type === "progress" || event.type === "logging") return [event.message];
      return [];
    });
  }
}

/** Options of {@link ConsoleOutputChannel}. */
export interface ConsoleOutputChannelOptions {
  /** Writes one line. @default console.log */
  readonly write?: (line: string) => void;
}

/** A channel that prints one line per event. */
export class ConsoleOutputChannel implements OutputChannel {
  private readonly write: (line: string) => void;

  constructor(options: ConsoleOutputChannelOptions = {}) {
    this.write = options.write ?? ((line) => console.log(line));
  }

  send(event: OutputChannelEvent): void {
    this.write(formatOutputEvent(event));
  }
}

/** One line for `event`: `[<process id prefix>] <kind>: <text>`. */
export function formatOutputEvent(event: OutputChannelEvent): string {
  const prefix = `[${event.processId.slice(0, 8)}]`;
  switch (event.type) {
    case "progress":
      return `${prefix} ${event.message}`;
    case "message":
      return `${prefix} ${event.message.content}`;
    case "content":
      return `${prefix} ${typeof event.content === "string" ? event.content : JSON.stringify(event.content)}`;
    case "logging":
      return `${prefix} ${event.level.toUpperCase()} ${event.message}`;
  }
}

const devNull: OutputChannel = Object.freeze({ send: () => {} });

/** Standard channels. */
export const OutputChannel = {
  /** Drops every event (the default). */
  DEV_NULL: devNull,
  /** A channel printing to the console (or `options.write`). */
  console(options?: ConsoleOutputChannelOptions): OutputChannel {
    return new ConsoleOutputChannel(options);
  },
  /**
   * Sends each event to every channel, in order, and waits for all of them; a
   * failing channel fails the send after the others received the event.
   * `DEV_NULL` channels are dropped.
   */
  multicast(...channels: OutputChannel[]): OutputChannel {
    const live = channels.filter((channel) => channel !== devNull);
    if (live.length === 0) return devNull;
    if (live.length === 1) return live[0] as OutputChannel;
    return {
      async send(event) {
        const results = await Promise.allSettled(live.map(async (channel) => channel.send(event)));
        const failed = results.find((result) => result.status === "rejected");
        if (failed) throw failed.reason;
      },
    };
  },
};
