import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args.js";
import { UsageError } from "./usage-error.js";

describe("parseCliArgs", () => {
  it("reads run with an example, an input and every option", () => {
    expect(
      parseCliArgs(["run", "star-news", "Lynda, a Scorpio", "--scripted", "--model", "openai:gpt-4.1", "-v"]),
    ).toEqual({
      command: "run",
      example: "star-news",
      input: "Lynda, a Scorpio",
      scripted: true,
      model: "openai:gpt-4.1",
      verbose: true,
      config: undefined,
    });
  });

  it("leaves the input undefined when it is omitted", () => {
    expect(parseCliArgs(["run", "star-news"])).toMatchObject({ input: undefined, scripted: false });
  });

  it("reads list", () => {
    expect(parseCliArgs(["list"])).toEqual({ command: "list" });
  });

  it("treats no arguments, help and --help as help; no arguments is a missing command", () => {
    expect(parseCliArgs([])).toEqual({ command: "help", missingCommand: true });
    expect(parseCliArgs(["help"])).toEqual({ command: "help" });
    expect(parseCliArgs(["run", "x", "--help"])).toEqual({ command: "help" });
  });

  it("refuses an option the command does not take, naming the commands that do (never ignores it)", () => {
    expect(() => parseCliArgs(["run", "star-news", "--concurrency", "abc"])).toThrow(
      "'run' takes no --concurrency (it is an option of 'worker').",
    );
    expect(() => parseCliArgs(["studio", "--scripted"])).toThrow(
      "'studio' takes no --scripted (it is an option of 'run', 'worker', 'mcp-serve').",
    );
    expect(() => parseCliArgs(["list", "--port", "1"])).toThrow(
      "'list' takes no --port (it is an option of 'studio').",
    );
    expect(() => parseCliArgs(["worker", "--redis", "redis://127.0.0.1:1", "--concurrency", "abc"])).toThrow(
      "Option '--concurrency' needs a whole number of 1 or more (got 'abc').",
    );
  });

  it("rejects an unknown command, naming it", () => {
    expect(() => parseCliArgs(["go"])).toThrow(
      "Unknown command 'go'. Commands: run, list, studio, worker, mcp-serve, respond, waiting, help.",
    );
  });

  it("rejects an unknown option with a usage error", () => {
    expect(() => parseCliArgs(["run", "x", "--fast"])).toThrow(
      usageError("Unknown option '--fast'. Run 'embabel-ts --help' for the options."),
    );
  });

  it("rejects run without an example", () => {
    expect(() => parseCliArgs(["run"])).toThrow("'run' needs the name of an example");
  });

  it("rejects an unquoted multi-word input and shows how to quote it", () => {
    expect(() => parseCliArgs(["run", "star-news", "Lynda", "Scorpio"])).toThrow(
      `'run' takes one input; put it in quotes: embabel-ts run star-news "Lynda Scorpio"`,
    );
  });

  it("rejects an empty or blank input with a usage error", () => {
    for (const input of ["", "   "]) {
      expect(() => parseCliArgs(["run", "star-news", input, "--scripted"])).toThrow(
        usageError(
          `The input is empty. Put the request in quotes (embabel-ts run star-news "<input>"), or leave it out to use the example's sample input.`,
        ),
      );
    }
  });

  it("rejects --model without a value", () => {
    expect(() => parseCliArgs(["run", "x", "--model"])).toThrow("Option '--model' needs a value.");
  });
});

/** Matches a {@link UsageError} with exactly `message`. */
function usageError(message: string) {
  return expect.objectContaining({ name: UsageError.name, message });
}

describe("parseCliArgs: scale-out", () => {
  it("reads run --redis and --queue", () => {
    expect(
      parseCliArgs(["run", "star-news", "--redis", "redis://127.0.0.1:6379", "--queue", "q"]),
    ).toMatchObject({ command: "run", example: "star-news", redis: "redis://127.0.0.1:6379", queue: "q" });
  });

  it("reads run --wait-timeout and --stalled-interval with --redis, and refuses them without it or malformed", () => {
    expect(
      parseCliArgs([
        "run",
        "star-news",
        "--redis",
        "redis://h:1",
        "--wait-timeout",
        "2.5",
        "--stalled-interval",
        "500",
      ]),
    ).toMatchObject({ waitTimeoutSeconds: 2.5, stalledIntervalMs: 500 });
    expect(() => parseCliArgs(["run", "star-news", "--wait-timeout", "5"])).toThrow(
      usageError("--wait-timeout is for runs sent to workers: add --redis <url>."),
    );
    expect(() =>
      parseCliArgs(["run", "star-news", "--redis", "redis://h:1", "--wait-timeout", "soon"]),
    ).toThrow(usageError("Option '--wait-timeout' needs a number of seconds above 0 (got 'soon')."));
    expect(() => parseCliArgs(["run", "star-news", "--redis", "redis://h:1", "--wait-timeout", "0"])).toThrow(
      usageError("Option '--wait-timeout' needs a number of seconds above 0 (got '0')."),
    );
  });

  it("reads worker with a module and every option", () => {
    expect(
      parseCliArgs([
        "worker",
        "./dist/my-agents.js",
        "--redis",
        "redis://h:1",
        "--concurrency",
        "4",
        "--scripted",
        "--queue",
        "jobs",
        "--lock-duration",
        "5000",
        "--stalled-interval",
        "1000",
      ]),
    ).toEqual({
      command: "worker",
      module: "./dist/my-agents.js",
      redis: "redis://h:1",
      queue: "jobs",
      concurrency: 4,
      scripted: true,
      model: undefined,
      config: undefined,
      lockDurationMs: 5000,
      stalledIntervalMs: 1000,
    });
  });

  it("defaults worker to the built-in examples and concurrency 10", () => {
    expect(parseCliArgs(["worker", "--redis", "redis://h:1"])).toMatchObject({
      module: undefined,
      concurrency: 10,
      scripted: false,
    });
  });

  it("needs --redis for worker", () => {
    expect(() => parseCliArgs(["worker"])).toThrow(UsageError);
    expect(() => parseCliArgs(["worker"])).toThrow("'worker' needs the Redis to take runs from");
  });

  it("refuses a concurrency that is not a whole number of 1 or more", () => {
    for (const bad of ["0", "1.5", "many"]) {
      expect(() => parseCliArgs(["worker", "--redis", "redis://h:1", "--concurrency", bad])).toThrow(
        `Option '--concurrency' needs a whole number of 1 or more (got '${bad}').`,
      );
    }
  });
});

describe("parseCliArgs run --skills", () => {
  it("collects every --skills folder, in order", () => {
    expect(parseCliArgs(["run", "release-notes", "--skills", "./a", "--skills", "../b"])).toMatchObject({
      command: "run",
      skills: ["./a", "../b"],
    });
    expect(parseCliArgs(["run", "release-notes"])).not.toHaveProperty("skills");
  });

  it("needs a folder after --skills", () => {
    expect(() => parseCliArgs(["run", "release-notes", "--skills"])).toThrow(
      "Option '--skills' needs a value.",
    );
  });
});

describe("parseCliArgs mcp-serve", () => {
  it("reads --http, --scripted and --config", () => {
    expect(parseCliArgs(["mcp-serve", "--http", "0", "--scripted"])).toEqual({
      command: "mcp-serve",
      httpPort: 0,
      scripted: true,
      model: undefined,
      config: undefined,
    });
    expect(parseCliArgs(["mcp-serve"])).toMatchObject({ command: "mcp-serve", httpPort: undefined });
  });

  it("refuses a port that is not a number", () => {
    expect(() => parseCliArgs(["mcp-serve", "--http", "eighty"])).toThrow(
      "--http needs a port number from 0 to 65535 (0 picks a free one); got 'eighty'.",
    );
  });

  it("reads --host, --token, and repeated --allowed-origin and --allowed-host", () => {
    expect(
      parseCliArgs([
        "mcp-serve",
        "--http",
        "8765",
        "--host",
        "0.0.0.0",
        "--token",
        "t",
        "--allowed-origin",
        "https://a.example",
        "--allowed-origin",
        "https://b.example",
        "--allowed-host",
        "mcp.example.com",
      ]),
    ).toMatchObject({
      command: "mcp-serve",
      httpPort: 8765,
      host: "0.0.0.0",
      token: "t",
      allowedOrigins: ["https://a.example", "https://b.example"],
      allowedHosts: ["mcp.example.com"],
    });
  });

  it("reads --max-sessions and --session-idle (seconds), and refuses them without --http or below 1", () => {
    expect(
      parseCliArgs(["mcp-serve", "--http", "0", "--max-sessions", "5", "--session-idle", "90"]),
    ).toMatchObject({ command: "mcp-serve", maxSessions: 5, sessionIdleMs: 90_000 });
    expect(() => parseCliArgs(["mcp-serve", "--max-sessions", "5"])).toThrow(
      usageError("--max-sessions is for serving over HTTP: add --http <port>."),
    );
    expect(() => parseCliArgs(["mcp-serve", "--http", "0", "--session-idle", "0"])).toThrow(
      usageError("Option '--session-idle' needs a whole number of 1 or more (got '0')."),
    );
  });

  it("refuses an empty --token", () => {
    expect(() => parseCliArgs(["mcp-serve", "--http", "0", "--token", ""])).toThrow(
      usageError("--token is empty: give the token clients must send, or leave --token out."),
    );
  });

  it("refuses the HTTP options without --http", () => {
    expect(() => parseCliArgs(["mcp-serve", "--token", "t"])).toThrow(
      usageError("--token is for serving over HTTP: add --http <port>."),
    );
  });

  it("reads respond and waiting with a module first, like worker, and respond's --wait", () => {
    const redis = ["--redis", "redis://127.0.0.1:6379"];
    expect(
      parseCliArgs(["respond", "./agents.js", "p1", "r1", "approve", "--wait", "2.5", ...redis]),
    ).toMatchObject({
      command: "respond",
      module: "./agents.js",
      processId: "p1",
      requestId: "r1",
      answer: "approve",
      waitSeconds: 2.5,
    });
    const plain = parseCliArgs(["respond", "p1", "r1", "deny", ...redis]);
    expect(plain).toMatchObject({ processId: "p1", requestId: "r1", answer: "deny" });
    expect(plain).not.toHaveProperty("module");
    expect(plain).not.toHaveProperty("waitSeconds");
    expect(parseCliArgs(["waiting", "./agents.js", ...redis, "--queue", "q"])).toMatchObject({
      command: "waiting",
      module: "./agents.js",
      queue: "q",
    });
    for (const wait of ["-1", "soon", ""])
      expect(() => parseCliArgs(["respond", "p1", "r1", "approve", `--wait=${wait}`, ...redis])).toThrow(
        `--wait needs a number of seconds, 0 or more (got '${wait}').`,
      );
    expect(() => parseCliArgs(["waiting", "a.js", "b.js", ...redis])).toThrow("'waiting' takes at most one module");
    expect(() => parseCliArgs(["respond", "m", "p1", "r1", "approve", "extra", ...redis])).toThrow(
      /^Usage: /,
    );
    expect(() => parseCliArgs(["waiting", "--wait", "1", ...redis])).toThrow("'waiting' takes no --wait");
  });

  it("reads mcp-serve --redis and --queue", () => {
    expect(parseCliArgs(["mcp-serve", "--redis", "redis://127.0.0.1:6379", "--queue", "q"])).toMatchObject({
      command: "mcp-serve",
      redis: "redis://127.0.0.1:6379",
      queue: "q",
    });
  });
});

describe("parseCliArgs: a user's module on every command", () => {
  it("reads run <module> --agent <name>", () => {
    expect(parseCliArgs(["run", "./dist/agents.js", "Ada", "--agent", "Greeter"])).toMatchObject({
      command: "run",
      example: "./dist/agents.js",
      agent: "Greeter",
      input: "Ada",
    });
  });

  it("reads studio <module> beside trace files, and refuses two modules", () => {
    expect(parseCliArgs(["studio", "agents.mjs", "run.jsonl", "--port", "0"])).toMatchObject({
      command: "studio",
      module: "agents.mjs",
      files: ["run.jsonl"],
    });
    expect(parseCliArgs(["studio", "run.jsonl"])).not.toHaveProperty("module");
    expect(() => parseCliArgs(["studio", "a.js", "b.js"])).toThrow(
      "'studio' takes one module (got 'a.js', 'b.js').",
    );
  });

  it("reads waiting <module> and respond <module> <process> <request> <answer>", () => {
    expect(parseCliArgs(["waiting", "./dist/agents.js", "--redis", "redis://127.0.0.1:6379"])).toMatchObject({
      command: "waiting",
      module: "./dist/agents.js",
    });
    expect(
      parseCliArgs([
        "respond",
        "./dist/agents.js",
        "p-1",
        "r1",
        "approve",
        "--redis",
        "redis://127.0.0.1:6379",
      ]),
    ).toMatchObject({ command: "respond", module: "./dist/agents.js", processId: "p-1", requestId: "r1" });
    // Without a module, the three positionals are as before.
    expect(parseCliArgs(["respond", "p-1", "r1", "deny", "--redis", "redis://x"])).not.toHaveProperty(
      "module",
    );
    expect(() => parseCliArgs(["waiting", "oops", "--redis", "redis://x"])).toThrow(
      "'waiting' takes at most one module path (got 'oops').",
    );
  });

  it("takes --agent only on run", () => {
    expect(() => parseCliArgs(["mcp-serve", "--agent", "x"])).toThrow(
      "'mcp-serve' takes no --agent (it is an option of 'run').",
    );
  });
});
