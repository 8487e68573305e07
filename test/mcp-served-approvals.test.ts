import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "./support/dist.js";
import { copyFixtureSkills, type SkillsCopy } from "./support/skill-fixtures.js";

// Tools served with createMcpServer go through the one approval gate, for any
// MCP client (the SDK's own), over Streamable HTTP on 127.0.0.1 and over
// stdio: arguments are validated, a tool needing approval asks the client by
// elicitation when it can, and otherwise answers with the request's id, which
// the client answers with `respond_to_request`; the approved call then runs
// once with exactly the approved (or edited, re-validated) arguments. The
// side effects are counted in a file the fixture tools append to.

const FIXTURE = join(root, "test/fixtures/mcp/approval-server.mjs");

type CallResult = Awaited<ReturnType<Client["callTool"]>>;
const text = (result: CallResult) => (result.content as { text: string }[]).map((part) => part.text).join("");
const requestIdIn = (result: CallResult) => /Request id: (\S+)/.exec(text(result))?.[1] ?? "";

let dir: string;
let log: string;
const payments = () => readFileSync(log, "utf8").split("\n").filter(Boolean);

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "embabel-served-"));
  log = join(dir, "payments.log");
  process.env.PAY_LOG = log; // the HTTP leg serves the fixture in this process
}, 180_000);
afterAll(() => {
  delete process.env.PAY_LOG;
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => writeFileSync(log, ""));

describe("served tools needing approval, a client without elicitation (HTTP on 127.0.0.1)", () => {
  let endpoint: { url: string; close(): Promise<void> };
  let client: Client;

  beforeAll(async () => {
    const library = await import(pathToFileURL(join(root, "dist/src/index.js")).href);
    const fixture = await import(pathToFileURL(FIXTURE).href);
    endpoint = await library.serveMcpOverHttp(fixture.approvalServer, { port: 0 });
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    client = new Client({ name: "no-elicitation", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await endpoint?.close();
  });

  it("lists the respond tool beside the served tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["pay", "slow_pay", "desk", "respond_to_request"]);
  });

  it("approve: the call waits, names its request; the respond tool runs it once and returns its result", async () => {
    const waiting = await client.callTool({ name: "pay", arguments: { tag: "a1", cents: 100 } });
    expect(waiting.isError).toBe(true);
    expect(text(waiting)).toContain("Tool 'pay' needs a person's approval: Pay 100 cents for a1?");
    expect(text(waiting)).toContain("The call has not run.");
    const id = requestIdIn(waiting);
    expect(id).toMatch(/^req-[0-9a-f-]{36}$/);
    expect(payments()).toEqual([]);

    const ran = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: id, approve: true },
    });
    expect(ran.isError).toBeFalsy();
    expect(text(ran)).toBe("paid 100 for a1");
    expect(payments()).toEqual(["pay a1 100"]);

    // The answer was for that one call: answering again, or calling again, does not run it.
    const again = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: id, approve: true },
    });
    expect(again.isError).toBe(true);
    expect(text(again)).toContain(`no open request '${id}'`);
    const second = await client.callTool({ name: "pay", arguments: { tag: "a1", cents: 100 } });
    expect(text(second)).toContain("needs a person's approval");
    expect(payments()).toEqual(["pay a1 100"]);
  });

  it("deny: the tool does not run, and the reason is the answer", async () => {
    const id = requestIdIn(await client.callTool({ name: "pay", arguments: { tag: "d1", cents: 100 } }));
    const denied = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: id, approve: false, reason: "not this month" },
    });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toBe("The user denied this call: not this month");
    expect(payments()).toEqual([]);
  });

  it("edit valid: the tool runs once with the edited arguments", async () => {
    const id = requestIdIn(await client.callTool({ name: "pay", arguments: { tag: "e1", cents: 900 } }));
    const ran = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: id, approve: true, input: '{"tag":"e1","cents":450}' },
    });
    expect(text(ran)).toBe("paid 450 for e1");
    expect(payments()).toEqual(["pay e1 450"]);
  });

  it("edit invalid: refused naming the field, the same request stays open, and a later answer runs it once", async () => {
    const id = requestIdIn(await client.callTool({ name: "pay", arguments: { tag: "i1", cents: 100 } }));
    const notJson = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: id, approve: true, input: "{cents: lots" },
    });
    expect(notJson.isError).toBe(true);
    expect(text(notJson)).toContain(`must be JSON; request ${id} stays open`);

    const tooMuch = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: id, approve: true, input: '{"tag":"i1","cents":999999}' },
    });
    expect(tooMuch.isError).toBe(true);
    expect(text(tooMuch)).toMatch(/asked again: .*cents/);
    expect(requestIdIn(tooMuch)).toBe(id);
    expect(payments()).toEqual([]);

    const ran = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: id, approve: true },
    });
    expect(text(ran)).toBe("paid 100 for i1");
    expect(payments()).toEqual(["pay i1 100"]);
  });

  it("timeout: answered after the approval's timeoutMs, the call is denied 'timed out' and never runs", async () => {
    const id = requestIdIn(await client.callTool({ name: "slow_pay", arguments: { tag: "t1", cents: 100 } }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const late = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: id, approve: true },
    });
    expect(late.isError).toBe(true);
    expect(text(late)).toBe("The user denied this call: timed out");
    expect(payments()).toEqual([]);
  });

  it("bad arguments: refused in-band before anyone is asked; an unknown tool is -32602", async () => {
    const bad = await client.callTool({ name: "pay", arguments: { tag: "b1", cents: "lots" } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^Invalid arguments for tool 'pay'/);
    expect(text(bad)).not.toContain("Request id");
    const negative = await client.callTool({ name: "pay", arguments: { tag: "b1", cents: -5 } });
    expect(text(negative)).toMatch(/^Invalid arguments for tool 'pay'/);
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const badRespond = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: "x", approve: "yes" },
    });
    expect(text(badRespond)).toBe("respond_to_request: 'approve' must be true or false.");
    expect(payments()).toEqual([]);
  });

  it("a facade shortcut to the approval-gated tool waits too, and runs once when approved", async () => {
    const waiting = await client.callTool({ name: "desk", arguments: { pay: { tag: "f1", cents: 100 } } });
    expect(waiting.isError).toBe(true);
    expect(text(waiting)).toContain("Tool 'pay' needs a person's approval: Pay 100 cents for f1?");
    expect(requestIdIn(waiting)).toMatch(/^req-/);
    expect(payments()).toEqual([]);
    const ran = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: requestIdIn(waiting), approve: true },
    });
    expect(text(ran)).toContain("paid 100 for f1");
    expect(payments()).toEqual(["pay f1 100"]);
  });
});

describe("served tools needing approval over stateless HTTP (each request on its own server)", () => {
  it("a request opened by one POST is answered by another, and runs once", async () => {
    const library = await import(pathToFileURL(join(root, "dist/src/index.js")).href);
    const fixture = await import(pathToFileURL(FIXTURE).href);
    const endpoint = await library.serveMcpOverHttp(fixture.approvalServer, {
      port: 0,
      sessions: "stateless",
    });
    const client = new Client({ name: "stateless", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      const waiting = await client.callTool({ name: "pay", arguments: { tag: "h1", cents: 300 } });
      const ran = await client.callTool({
        name: "respond_to_request",
        arguments: { requestId: requestIdIn(waiting), approve: true },
      });
      expect(text(ran)).toBe("paid 300 for h1");
      expect(payments()).toEqual(["pay h1 300"]);
    } finally {
      await client.close();
      await endpoint.close();
    }
  }, 60_000);
});

describe("served tools needing approval, a client with elicitation (stdio)", () => {
  let answers: ((request: ElicitRequest) => ElicitResult)[] = [];
  const asked: string[] = [];
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: "elicits", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      const next = answers.shift();
      if (!next) throw new Error("not expected to be asked");
      return next(request);
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [FIXTURE],
        cwd: root,
        env: { PATH: process.env.PATH ?? "", PAY_LOG: log },
        stderr: "ignore",
      }),
    );
  }, 60_000);
  afterAll(async () => client?.close());
  beforeEach(() => {
    asked.length = 0;
  });

  const accept = (content: Record<string, string | boolean>) => () => ({
    action: "accept" as const,
    content,
  });

  it("approve: asked once with the message and arguments; the tool runs once", async () => {
    answers = [accept({ approve: true })];
    const ran = await client.callTool({ name: "pay", arguments: { tag: "s1", cents: 100 } });
    expect(text(ran)).toBe("paid 100 for s1");
    expect(asked).toEqual([expect.stringContaining("Pay 100 cents for s1?")]);
    expect(asked[0]).toContain('"cents": 100');
    expect(payments()).toEqual(["pay s1 100"]);
  });

  it("deny: declining the form denies the call", async () => {
    answers = [() => ({ action: "decline" })];
    const denied = await client.callTool({ name: "pay", arguments: { tag: "s2", cents: 100 } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toBe("The user denied this call: declined in the MCP client");
    expect(payments()).toEqual([]);
  });

  it("edit: not JSON, then out of range, are asked again saying why; the valid edit runs once", async () => {
    answers = [
      accept({ approve: true, input: "{cents:" }),
      accept({ approve: true, input: '{"tag":"s3","cents":999999}' }),
      accept({ approve: true, input: '{"tag":"s3","cents":250}' }),
    ];
    const ran = await client.callTool({ name: "pay", arguments: { tag: "s3", cents: 100 } });
    expect(text(ran)).toBe("paid 250 for s3");
    expect(asked).toHaveLength(3);
    expect(asked[1]).toContain("(Asked again: the edited arguments are not JSON");
    expect(asked[2]).toMatch(/\(Asked again: .*cents/);
    expect(payments()).toEqual(["pay s3 250"]);
  });

  it("timeout: a person who does not answer within timeoutMs is a denial 'timed out'", async () => {
    answers = [() => new Promise<never>(() => {}) as never];
    const late = await client.callTool({ name: "slow_pay", arguments: { tag: "s4", cents: 100 } });
    expect(text(late)).toBe("The user denied this call: timed out");
    expect(payments()).toEqual([]);
  });

  it("cancelled: the request stays open and the respond tool answers it on the same connection", async () => {
    answers = [() => ({ action: "cancel" })];
    const waiting = await client.callTool({ name: "pay", arguments: { tag: "s5", cents: 100 } });
    expect(waiting.isError).toBe(true);
    const ran = await client.callTool({
      name: "respond_to_request",
      arguments: { requestId: requestIdIn(waiting), approve: true },
    });
    expect(text(ran)).toBe("paid 100 for s5");
    expect(payments()).toEqual(["pay s5 100"]);
  });
});

describe("skill scripts served over MCP need the person's approval (HTTP without elicitation, stdio with it)", () => {
  const SKILLS_FIXTURE = join(root, "test/fixtures/mcp/skills-approval-server.mjs");
  let copy: SkillsCopy;
  let runsLog: string;
  const scriptRuns = () =>
    existsSync(runsLog) ? readFileSync(runsLog, "utf8").split("\n").filter(Boolean) : [];
  const runArgs = (tag: string) => ({ skill: "csv-audit", script: "scripts/count.mjs", args: [tag] });

  beforeAll(() => {
    copy = copyFixtureSkills();
    runsLog = join(copy.dir, "csv-audit", "runs.log");
    // Each run of the script appends its argument: the side effect the tests count.
    writeFileSync(
      join(copy.dir, "csv-audit", "scripts", "count.mjs"),
      'import { appendFileSync } from "node:fs";\nappendFileSync("runs.log", process.argv[2] + "\\n");\n',
    );
  });
  afterAll(() => copy?.remove());
  beforeEach(() => rmSync(runsLog, { force: true }));

  describe("HTTP on 127.0.0.1, a client without elicitation", () => {
    let endpoint: { url: string; close(): Promise<void> };
    let client: Client;

    beforeAll(async () => {
      const library = await import(pathToFileURL(join(root, "dist/src/index.js")).href);
      const fixture = await import(pathToFileURL(SKILLS_FIXTURE).href);
      endpoint = await library.serveMcpOverHttp(await fixture.skillsServerFactory(copy.dir), { port: 0 });
      client = new Client({ name: "no-elicitation", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      const activated = await client.callTool({ name: "skills", arguments: { skill: "csv-audit" } });
      expect(text(activated)).toContain("csv-audit");
    }, 60_000);
    afterAll(async () => {
      await client?.close();
      await endpoint?.close();
    });

    it("approve: the script waits for the respond tool, then runs exactly once", async () => {
      const waiting = await client.callTool({ name: "run_skill_script", arguments: runArgs("h-approve") });
      expect(waiting.isError).toBe(true);
      expect(text(waiting)).toContain("Tool 'run_skill_script' needs a person's approval");
      expect(scriptRuns()).toEqual([]);
      const ran = await client.callTool({
        name: "respond_to_request",
        arguments: { requestId: requestIdIn(waiting), approve: true },
      });
      expect(text(ran)).toContain("'scripts/count.mjs' exited with code 0.");
      expect(scriptRuns()).toEqual(["h-approve"]);
      const again = await client.callTool({
        name: "respond_to_request",
        arguments: { requestId: requestIdIn(waiting), approve: true },
      });
      expect(again.isError).toBe(true);
      expect(scriptRuns()).toEqual(["h-approve"]);
    });

    it("deny: the script never runs", async () => {
      const waiting = await client.callTool({ name: "run_skill_script", arguments: runArgs("h-deny") });
      const denied = await client.callTool({
        name: "respond_to_request",
        arguments: { requestId: requestIdIn(waiting), approve: false, reason: "no scripts" },
      });
      expect(text(denied)).toBe("The user denied this call: no scripts");
      expect(scriptRuns()).toEqual([]);
    });

    it("edit: the script runs once with the edited arguments; bad arguments are refused before anyone is asked", async () => {
      const waiting = await client.callTool({ name: "run_skill_script", arguments: runArgs("h-asked") });
      const ran = await client.callTool({
        name: "respond_to_request",
        arguments: {
          requestId: requestIdIn(waiting),
          approve: true,
          input: JSON.stringify(runArgs("h-edited")),
        },
      });
      expect(text(ran)).toContain("exited with code 0");
      expect(scriptRuns()).toEqual(["h-edited"]);
      const bad = await client.callTool({
        name: "run_skill_script",
        arguments: { skill: "csv-audit", script: 42 },
      });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/^Invalid arguments for tool 'run_skill_script'/);
      expect(text(bad)).not.toContain("Request id");
      expect(scriptRuns()).toEqual(["h-edited"]);
    });
  });

  describe("stdio, a client with elicitation", () => {
    let answers: ((request: ElicitRequest) => ElicitResult)[] = [];
    let client: Client;

    beforeAll(async () => {
      client = new Client({ name: "elicits", version: "1.0.0" }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        const next = answers.shift();
        if (!next) throw new Error(`not expected to be asked: ${request.params.message}`);
        return next(request);
      });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [SKILLS_FIXTURE],
          cwd: root,
          env: { PATH: process.env.PATH ?? "", SKILLS_DIR: copy.dir },
          stderr: "ignore",
        }),
      );
      await client.callTool({ name: "skills", arguments: { skill: "csv-audit" } });
    }, 60_000);
    afterAll(async () => client?.close());

    it("approve: asked once with the script's arguments, then it runs exactly once", async () => {
      const asked: string[] = [];
      answers = [
        (request) => {
          asked.push(request.params.message);
          return { action: "accept", content: { approve: true } };
        },
      ];
      const ran = await client.callTool({ name: "run_skill_script", arguments: runArgs("s-approve") });
      expect(text(ran)).toContain("'scripts/count.mjs' exited with code 0.");
      expect(asked).toEqual([expect.stringContaining("s-approve")]);
      expect(scriptRuns()).toEqual(["s-approve"]);
    });

    it("deny: declining the form denies the script, which never runs", async () => {
      answers = [() => ({ action: "decline" })];
      const denied = await client.callTool({ name: "run_skill_script", arguments: runArgs("s-deny") });
      expect(denied.isError).toBe(true);
      expect(text(denied)).toBe("The user denied this call: declined in the MCP client");
      expect(scriptRuns()).toEqual([]);
    });
  });
});
