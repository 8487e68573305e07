import { describe, expect, it } from "vitest";
import { textStream } from "./text-stream.js";

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const deltas: string[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

describe("textStream", () => {
  it("yields deltas pushed before and after the reader starts, then ends", async () => {
    let push: (delta: string) => void = () => {};
    let finish: (text: string) => void = () => {};
    const stream = textStream((onTextDelta) => {
      push = onTextDelta;
      onTextDelta("a");
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    });
    const reading = collect(stream);
    await Promise.resolve();
    push("b");
    finish("ab");
    expect(await reading).toEqual(["a", "b"]);
    expect(await stream.text).toBe("ab");
  });

  it("gives every delta to each of several concurrent readers", async () => {
    let push: (delta: string) => void = () => {};
    let finish: (text: string) => void = () => {};
    const stream = textStream((onTextDelta) => {
      push = onTextDelta;
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    });
    const first = collect(stream);
    const second = collect(stream.textStream);
    await Promise.resolve();
    push("a");
    await Promise.resolve();
    push("b");
    finish("ab");
    expect(await first).toEqual(["a", "b"]);
    expect(await second).toEqual(["a", "b"]);
    expect(await collect(stream)).toEqual(["a", "b"]);
  });

  it("ends the iteration with the run's error and rejects text", async () => {
    const stream = textStream(async (onTextDelta) => {
      onTextDelta("partial");
      throw new Error("provider down");
    });
    await expect(collect(stream.textStream)).rejects.toThrow("provider down");
    await expect(stream.text).rejects.toThrow("provider down");
  });
});
