import { EventEmitter } from "node:events";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Logger } from "../tool/logger.js";
import { watchConnection } from "./connection-watch.js";

const lines: string[] = [];
let previous: Logger | undefined;
beforeAll(() => {
  previous = Logger.setDefault({
    debug: () => {},
    info: () => {},
    warn: (message) => lines.push(message),
    error: (message) => lines.push(message),
  });
});
afterEach(() => {
  lines.length = 0;
});
afterAll(() => {
  if (previous) Logger.setDefault(previous);
});

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6390"), { code: "ECONNREFUSED" });

describe("watchConnection", () => {
  it("says once that Redis is unreachable and once that it is back, however many errors come between", () => {
    const client = new EventEmitter();
    const queue = new EventEmitter();
    watchConnection("redis://:secret@127.0.0.1:6390", "runner (queue 'q')", [client, queue], client);
    client.emit("close");
    for (let retry = 0; retry < 10; retry++) {
      client.emit("error", refused());
      queue.emit("error", refused());
    }
    client.emit("ready");
    client.emit("ready");
    expect(lines).toEqual([
      "runner (queue 'q'): Redis at redis://:***@127.0.0.1:6390 is unreachable (connection closed); retrying until it is back",
      "runner (queue 'q'): Redis at redis://:***@127.0.0.1:6390 is reachable again",
    ]);
  });

  it("ignores errors that are not a lost connection, and says nothing once stopped", () => {
    const client = new EventEmitter();
    const watch = watchConnection("redis://127.0.0.1:6390", "worker", [client], client);
    client.emit("error", new Error("Missing lock for job 7"));
    expect(lines).toEqual([]);
    watch.stop();
    client.emit("close");
    client.emit("error", refused());
    expect(lines).toEqual([]);
  });
});
