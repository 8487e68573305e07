import { describe, expect, it } from "vitest";
import { AmbientProcess } from "./ambient-process.js";

const processNamed = (id: string) => ({ id, blackboard: { add: () => undefined } });

describe("AmbientProcess", () => {
  it("is undefined outside a process", () => {
    expect(AmbientProcess.current()).toBeUndefined();
  });

  it("keeps each concurrent process's own value across awaits", async () => {
    const seen = await Promise.all(
      ["a", "b"].map((id) =>
        AmbientProcess.run(processNamed(id), async () => {
          await new Promise((resolve) => setTimeout(resolve, id === "a" ? 5 : 0));
          return AmbientProcess.current()?.id;
        }),
      ),
    );
    expect(seen).toEqual(["a", "b"]);
  });
});
