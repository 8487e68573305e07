import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, CLI_MAIN as main } from "./support/cli.js";
import { ensureBuilt, root } from "./support/dist.js";
import { hasRedisServer, startRedis, type TestRedis } from "./support/redis-server.js";

// The built `embabel-ts` answering waits: on a real pseudo-terminal (util-linux
// `script` gives the command a TTY), and against runs waiting on Redis with
// `waiting` and `respond`.

beforeAll(() => ensureBuilt(), 180_000);

/** Runs `args` on a pseudo-terminal; `answer(output)` returns the next line to type once the output asks for it. */
function onTerminal(args: readonly string[], answers: readonly [RegExp, string][]) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const command = [process.execPath, main, ...args]
      .map((part) => `'${part.replace(/'/g, "'\\''")}'`)
      .join(" ");
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", TERM: "dumb", NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let next = 0;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const answer = answers[next];
      if (answer?.[0].test(output.slice(output.lastIndexOf("\n", output.length - 2)))) {
        next += 1;
        child.stdin.write(`${answer[1]}\n`);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("embabel-ts run on a terminal", () => {
  it("asks approve / deny / edit; deny asks for the reason and the run goes on", async () => {
    const { code, output } = await onTerminal(
      ["run", "refund-desk", "--scripted", "--no-keep-runs"],
      [
        [/\[a\]pprove \/ \[d\]eny \/ \[e\]dit: $/, "d"],
        [/reason: $/, "needs a photo"],
      ],
    );
    expect(output).toContain("r1 approve issue_refund");
    expect(output).toContain("Refund $49.00 for order A-1001?");
    expect(output).toContain("A-1001 · no refund");
    expect(code).toBe(0);
  }, 60_000);

  it("edit runs the tool with the arguments typed as JSON", async () => {
    const { code, output } = await onTerminal(
      ["run", "refund-desk", "--scripted", "--no-keep-runs"],
      [
        [/\[e\]dit: $/, "e"],
        [/arguments \(JSON\): $/, '{"orderId":"A-1001","cents":700,"reason":"partial"}'],
      ],
    );
    expect(output).toContain("A-1001 · refunded $7.00");
    expect(code).toBe(0);
  }, 60_000);

  it("an edit the tool's schema refuses is an error naming the field, and the request is asked again", async () => {
    const { code, output } = await onTerminal(
      ["run", "refund-desk", "--scripted", "--no-keep-runs"],
      [
        [/\[e\]dit: $/, "e"],
        [/arguments \(JSON\): $/, '{"orderId":"A-1001","cents":-5,"reason":"partial"}'],
        [/\[e\]dit: $/, "a"],
      ],
    );
    expect(output).toMatch(/error: Request r1 of process \S+: .*cents/);
    expect(output).toContain("A-1001 · refunded $49.00");
    expect(code).toBe(0);
  }, 60_000);
});

describe("embabel-ts run without a terminal", () => {
  it("prints the request and exits 3", async () => {
    const run = await cli(["run", "refund-desk", "--scripted", "--no-keep-runs"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("is waiting for a person");
    expect(run.stderr).toContain("pass --approve-all or --deny-all");
  }, 60_000);

  it("--approve-all completes", async () => {
    const run = await cli(["run", "refund-desk", "--scripted", "--no-keep-runs", "--approve-all"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("A-1001 · refunded $49.00");
  }, 60_000);

  it("--deny-all completes without refunding, the denial reaching the model", async () => {
    const run = await cli(["run", "refund-desk", "--scripted", "--no-keep-runs", "--deny-all"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("A-1001 · no refund");
  }, 60_000);
});

describe.skipIf(!hasRedisServer)("embabel-ts waiting and respond, on Redis", () => {
  let redis: TestRedis;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    worker = spawn(process.execPath, [main, "worker", "--redis", redis.url, "--scripted"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve) => {
      let out = "";
      worker?.stdout?.on("data", (chunk) => {
        out += chunk;
        if (out.includes(`worker ${worker?.pid} `)) resolve();
      });
    });
  }, 60_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once("exit", resolve));
      worker.kill("SIGKILL");
      await exited;
    }
    await redis?.stop();
  });

  it("a run on Redis prints the respond command; waiting lists it; respond answers it and a worker completes it", async () => {
    const run = await cli(["run", "refund-desk", "--scripted", "--no-keep-runs", "--redis", redis.url]);
    expect(run.code).toBe(3);
    const command = /embabel-ts respond (\S+) (r1) approve\|deny/.exec(run.stderr);
    expect(command, run.stderr).not.toBeNull();
    const processId = command?.[1] as string;

    const listed = await cli(["waiting", "--redis", redis.url]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(processId);
    expect(listed.stdout).toContain("r1 approve issue_refund");

    const wrong = await cli(["respond", processId, "r7", "approve", "--redis", redis.url]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("has no open request 'r7'");

    const answered = await cli([
      "respond",
      processId,
      "r1",
      "approve",
      "--input",
      '{"orderId":"A-1001","cents":4200,"reason":"dented"}',
      "--wait",
      "30",
      "--redis",
      redis.url,
    ]);
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toContain("answered; queued for a worker");
    expect(answered.stdout).toContain("completed");
    expect(answered.stdout).toContain('"refundedCents": 4200');
    expect((await cli(["waiting", "--redis", redis.url])).stdout).toContain("No run is waiting.");
  }, 90_000);
});
