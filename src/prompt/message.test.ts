import { describe, expect, it } from "vitest";
import { Message } from "./message.js";

describe("Message", () => {
  it("makes user and assistant messages", () => {
    expect(Message.user("hi")).toEqual({ role: "user", content: "hi" });
    expect(Message.assistant("hello")).toEqual({ role: "assistant", content: "hello" });
  });
});
