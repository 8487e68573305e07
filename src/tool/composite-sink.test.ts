import { describe, expect, it } from "vitest";
import { CompositeSink } from "./composite-sink.js";
import { ListSink } from "./list-sink.js";

describe("CompositeSink", () => {
  it("forwards each artifact to every sink in order", async () => {
    const order: string[] = [];
    const first = { accept: (artifact: unknown) => void order.push(`first:${artifact}`) };
    const second = {
      accept: async (artifact: unknown) => {
        await Promise.resolve();
        order.push(`second:${artifact}`);
      },
    };
    const list = new ListSink();
    await new CompositeSink(first, second, list).accept("x");
    expect(order).toEqual(["first:x", "second:x"]);
    expect(list.items()).toEqual(["x"]);
  });

  it("does nothing when empty", async () => {
    await expect(new CompositeSink().accept("x")).resolves.toBeUndefined();
  });

  it("propagates a failing sink's error", async () => {
    const failing = {
      accept: () => {
        throw new Error("sink down");
      },
    };
    await expect(new CompositeSink(failing).accept("x")).rejects.toThrow("sink down");
  });
});
