import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { colourEnabled, indent, memoryTerminal, oneLine, streamTerminal } from "./terminal.js";

describe("colourEnabled", () => {
  it("is on for a terminal and off otherwise", () => {
    expect(colourEnabled({}, true)).toBe(true);
    expect(colourEnabled({}, false)).toBe(false);
  });

  it("honours NO_COLOR and FORCE_COLOR", () => {
    expect(colourEnabled({ NO_COLOR: "1" }, true)).toBe(false);
    expect(colourEnabled({ FORCE_COLOR: "1" }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: "0" }, true)).toBe(false);
  });
});

describe("streamTerminal", () => {
  it("writes lines to the two streams, styled only when colour is on", () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const plain = streamTerminal(stdout, stderr, {});
    plain.out(plain.style.bold("out"));
    plain.err("err");
    expect(String(stdout.read())).toBe("out\n");
    expect(String(stderr.read())).toBe("err\n");
    const coloured = streamTerminal(stdout, stderr, { FORCE_COLOR: "1" });
    expect(coloured.style.bold("x")).toBe("\u001b[1mx\u001b[22m");
  });
});

describe("memoryTerminal", () => {
  it("records lines without colour", () => {
    const terminal = memoryTerminal();
    terminal.out(terminal.style.red("a"));
    terminal.err();
    expect(terminal.stdout).toEqual(["a"]);
    expect(terminal.stderr).toEqual([""]);
  });
});

describe("oneLine", () => {
  it("collapses whitespace and shortens with an ellipsis", () => {
    expect(oneLine("a\n  b")).toBe("a b");
    expect(oneLine("abcdef", 4)).toBe("abc…");
  });
});

describe("indent", () => {
  it("prefixes every non-empty line", () => {
    expect(indent("a\n\nb", "> ")).toBe("> a\n\n> b");
  });
});
