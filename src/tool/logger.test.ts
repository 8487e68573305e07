import { describe, expect, it } from "vitest";
import { ProgressTool } from "../builtins/progress-tool.js";
import { AgentPlatform } from "../platform/agent-platform.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { Logger, type LoggerLevel } from "./logger.js";

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: Logger.stderr({ write: (line) => lines.push(line) }), lines };
}

function recording(): { logger: Logger; records: [LoggerLevel, string][] } {
  const records: [LoggerLevel, string][] = [];
  const at = (level: LoggerLevel) => (message: string) => void records.push([level, message]);
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, records };
}

describe("Logger.stderr", () => {
  it("writes warnings and errors with fields, and drops debug and info by default", () => {
    const { logger, lines } = capture();
    logger.debug("hidden");
    logger.info("hidden too");
    logger.warn("clash", { server: "a b", count: 2 });
    logger.error("boom");
    expect(lines).toEqual(['[embabel-ts] warn: clash server="a b" count=2\n', "[embabel-ts] error: boom\n"]);
  });

  it("never writes an escape sequence or a key from the text it is given (MCP server stderr, model text)", () => {
    const { logger, lines } = capture();
    logger.warn("server said \u001b]52;c;ZXZpbA==\u0007done \u001b[2J", {
      detail: "key sk-live-SECRET-1234567890",
    });
    expect(lines).toEqual(['[embabel-ts] warn: server said done  detail="key [REDACTED]"\n']);
  });

  it("writes from the level it is given", () => {
    const lines: string[] = [];
    const logger = Logger.stderr({ level: "debug", write: (line) => lines.push(line) });
    logger.debug("now shown");
    expect(lines).toEqual(["[embabel-ts] debug: now shown\n"]);
  });
});

describe("Logger.current", () => {
  it("is the default logger outside a process and can be replaced and restored", () => {
    const { logger, records } = recording();
    const previous = Logger.setDefault(logger);
    try {
      expect(Logger.current()).toBe(logger);
      Logger.current().warn("outside");
    } finally {
      Logger.setDefault(previous);
    }
    expect(records).toEqual([["warn", "outside"]]);
    expect(Logger.current()).toBe(previous);
  });

  it("is the platform's logger inside that platform's processes", async () => {
    const { logger, records } = recording();
    const platform = AgentPlatform.create({ models: { default: ScriptedModel.of() }, logger });
    const process = await platform.runInProcess(async () => Logger.current().warn("inside"));
    expect(process.status).toBe("completed");
    expect(records).toEqual([["warn", "inside"]]);
  });
});

describe("library warnings", () => {
  it("ProgressTool outside a process warns through the default logger (the chapter's logged warning)", async () => {
    const { logger, records } = recording();
    const previous = Logger.setDefault(logger);
    try {
      const result = await ProgressTool.create().call(JSON.stringify({ status: "halfway" }));
      expect(result.kind).toBe("text");
    } finally {
      Logger.setDefault(previous);
    }
    expect(records).toEqual([
      ["warn", "progress tool called outside of an agent process — ignoring: halfway"],
    ]);
  });
});
