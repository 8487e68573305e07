import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args.js";
import { EXIT_OK, EXIT_USAGE, EXIT_WAITING, runCli } from "./run-cli.js";
import { memoryTerminal } from "./terminal.js";

async function run(argv: string[], answers?: string[]) {
  const terminal = memoryTerminal();
  const questions: string[] = [];
  const ask = answers
    ? async (question: string) => {
        questions.push(question);
        return answers.shift();
      }
    : undefined;
  const code = await runCli(["run", "refund-desk", "--scripted", "--no-keep-runs", ...argv], {
    terminal,
    env: {},
    cwd: process.cwd(),
    ...(ask ? { ask } : {}),
  });
  return { code, out: terminal.stdout.join("\n"), err: terminal.stderr.join("\n"), questions };
}

describe("embabel-ts run on an agent that waits for approval", () => {
  it("--approve-all approves the refund and the run completes", async () => {
    const { code, out } = await run(["--approve-all"]);
    expect(code).toBe(EXIT_OK);
    expect(out).toContain("A-1001 · refunded $49.00");
    // The tree shows the wait and who answered it.
    expect(out).toContain("⏸ handleRequest waits for a person");
    expect(out).toContain(
      '⏸ r1 approve issue_refund({"orderId":"A-1001","cents":4900,"reason":"Arrived damaged"})',
    );
    expect(out).toMatch(/✓ r1 approved by cli \(waited/);
  });

  it("--deny-all denies it; the model is told and answers", async () => {
    const { code, out } = await run(["--deny-all"]);
    expect(code).toBe(EXIT_OK);
    expect(out).toContain("A-1001 · no refund");
    expect(out).toContain("Sorry, we cannot refund order A-1001");
  });

  it("without a terminal or a flag, prints the request and exits 3", async () => {
    const { code, err } = await run([]);
    expect(code).toBe(EXIT_WAITING);
    expect(err).toMatch(/Process \S+ is waiting for a person:/);
    expect(err).toContain(
      'r1 approve issue_refund({"orderId":"A-1001","cents":4900,"reason":"Arrived damaged"})',
    );
    expect(err).toContain("Refund $49.00 for order A-1001?");
    expect(err).toContain("pass --approve-all or --deny-all");
  });

  it("on a terminal, asks: edit runs the tool with the typed arguments", async () => {
    const { code, out, questions } = await run(
      [],
      ["x", "e", "{not json", "e", '{"orderId":"A-1001","cents":1500,"reason":"Partial"}'],
    );
    expect(code).toBe(EXIT_OK);
    expect(questions[0]).toBe("[a]pprove / [d]eny / [e]dit: ");
    expect(out).toContain("A-1001 · refunded $15.00");
  });

  it("on a terminal, deny asks for a reason", async () => {
    const { code, out, questions } = await run([], ["d", "needs a photo"]);
    expect(code).toBe(EXIT_OK);
    expect(questions).toEqual(["[a]pprove / [d]eny / [e]dit: ", "reason: "]);
    expect(out).toContain("no refund");
  });

  it("on a terminal, an edit the tool's schema refuses is an error and the question comes again", async () => {
    const { code, out, err } = await run([], ["e", '{"orderId":"A-1001","cents":"lots"}', "a"]);
    expect(code).toBe(EXIT_OK);
    expect(err).toMatch(/edited input does not match tool 'issue_refund''s schema/);
    expect(out).toContain("refunded $49.00");
  });
});

describe("parseCliArgs: waits", () => {
  it("takes one of --approve-all and --deny-all", () => {
    expect(parseCliArgs(["run", "x", "--approve-all"])).toMatchObject({ approvals: "approve-all" });
    expect(() => parseCliArgs(["run", "x", "--approve-all", "--deny-all"])).toThrow(/Choose one/);
  });

  it("parses respond and waiting, which need --redis", () => {
    expect(
      parseCliArgs(["respond", "p1", "r1", "deny", "--reason", "no", "--redis", "redis://127.0.0.1:1"]),
    ).toEqual({
      command: "respond",
      processId: "p1",
      requestId: "r1",
      answer: "deny",
      reason: "no",
      input: undefined,
      redis: "redis://127.0.0.1:1",
      queue: undefined,
    });
    expect(() => parseCliArgs(["respond", "p1", "r1", "approve"])).toThrow(/needs the Redis/);
    expect(() => parseCliArgs(["respond", "p1", "r1", "maybe", "--redis", "r"])).toThrow(
      /approve, deny or submit/,
    );
    expect(() => parseCliArgs(["respond", "p1", "r1", "approve", "--input", "{", "--redis", "r"])).toThrow(
      /--input must be JSON/,
    );
    expect(parseCliArgs(["waiting", "--redis", "redis://x"])).toMatchObject({ command: "waiting" });
  });

  it("a usage mistake exits 2", async () => {
    const terminal = memoryTerminal();
    expect(await runCli(["waiting"], { terminal, env: {}, cwd: process.cwd() })).toBe(EXIT_USAGE);
  });
});
