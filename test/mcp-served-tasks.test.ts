import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentProcess,
  createMcpServer,
  InputSchema,
  McpServerCall,
  Param,
  serveMcpOverHttp,
  Tool,
  ToolResult,
} from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";
import { deskAgent } from "./support/desk-agent.js";

// Long-running calls served as tasks (MCP 2026-07-28, the tasks extension,
// SEP-2663) by createMcpServer + serveMcpOverHttp on 127.0.0.1. The SDK's v2
// client cannot read task results, so the test speaks the wire itself: raw
// JSON-RPC POSTs with the per-request `_meta` envelope and the standard
// headers (`Mcp-Method`, and `Mcp-Name` carrying the task id for tasks/*).

const TASKS = "io.modelcontextprotocol/tasks";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RpcReply {
  readonly status: number;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: unknown };
}

/** A 2026-07-28 client of `url` declaring `capabilities` (the tasks extension by default). */
function modernClient(url: string, capabilities: Record<string, unknown> = { extensions: { [TASKS]: {} } }) {
  let id = 0;
  const rpc = async (method: string, params: Record<string, unknown>): Promise<RpcReply> => {
    const name = method === "tools/call" ? params.name : params.taskId;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: ++id,
        method,
        params: {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "1.0.0" },
          },
        },
      }),
    });
    const body = await response.text();
    // A JSON body, or an SSE stream whose last `data:` line is the response.
    const json = response.headers.get("content-type")?.includes("text/event-stream")
      ? (body
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim())
          .filter(Boolean)
          .at(-1) ?? "{}")
      : body;
    const message = JSON.parse(json) as Omit<RpcReply, "status">;
    if (!message.result) return { status: response.status, ...message };
    // Every 2026-07-28 result carries the server's identity in `_meta`: left out here.
    const { _meta: _identity, ...result } = message.result;
    return { status: response.status, ...message, result };
  };
  return {
    rpc,
    call: (name: string, args: Record<string, unknown> = {}) => rpc("tools/call", { name, arguments: args }),
    get: (taskId: string) => rpc("tasks/get", { taskId }),
    /** Polls tasks/get until the task's status is one of `statuses`. */
    async until(taskId: string, statuses: readonly string[], timeoutMs = 10_000) {
      const started = Date.now();
      for (;;) {
        const reply = await rpc("tasks/get", { taskId });
        const status = reply.result?.status as string | undefined;
        if (status !== undefined && statuses.includes(status)) return reply.result as Record<string, unknown>;
        if (reply.error) throw new Error(`tasks/get failed: ${JSON.stringify(reply.error)}`);
        if (Date.now() - started > timeoutMs) throw new Error(`task ${taskId} stayed ${status}`);
        await pause(50);
      }
    },
  };
}

const textOf = (result: unknown) =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((block) => block.text).join("");

async function serve(create: () => ReturnType<typeof createMcpServer>) {
  const endpoint = await serveMcpOverHttp(create);
  cleanups.push(() => endpoint.close());
  return endpoint.url;
}

describe("a served agent run as a task", () => {
  it("answers a client declaring the extension with a task it polls to completed, with the agent's result", async () => {
    const desk = deskAgent({ model: ScriptedModel.of(ScriptedModel.text("Refunded order 7.")) });
    const url = await serve(() =>
      createMcpServer({ name: "desk", platform: desk.platform, agents: [desk.agent] }),
    );
    const client = modernClient(url);
    const created = await client.call("Desk", { text: "Refund order 7" });
    expect(created.result).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000 });
    const taskId = created.result?.taskId as string;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    // Durable before the answer: an immediate tasks/get finds it.
    expect((await client.get(taskId)).result?.taskId).toBe(taskId);
    const done = await client.until(taskId, ["completed", "failed", "cancelled"]);
    expect(done).toMatchObject({ resultType: "complete", status: "completed" });
    expect(textOf(done.result)).toContain("Refunded order 7.");
    expect(done.result).not.toHaveProperty("isError");
  });

  it("answers a client without the extension in the call, as before (no task)", async () => {
    const desk = deskAgent({ model: ScriptedModel.of(ScriptedModel.text("Refunded order 7.")) });
    const url = await serve(() =>
      createMcpServer({ name: "desk", platform: desk.platform, agents: [desk.agent] }),
    );
    const plain = await modernClient(url, {}).call("Desk", { text: "Refund order 7" });
    expect(plain.result?.resultType).toBe("complete");
    expect(plain.result).not.toHaveProperty("taskId");
    expect(textOf(plain.result)).toContain("Refunded order 7.");
  });

  it("declares the extension in server/discover only when something runs as a task", async () => {
    const desk = deskAgent({ model: ScriptedModel.of(ScriptedModel.text("x")) });
    const withTasks = await serve(() =>
      createMcpServer({ name: "desk", platform: desk.platform, agents: [desk.agent] }),
    );
    const without = await serve(() =>
      createMcpServer({ name: "desk", platform: desk.platform, agents: [desk.agent], tasks: false }),
    );
    const discover = async (url: string) =>
      ((await modernClient(url).rpc("server/discover", {})).result?.capabilities ?? {}) as {
        extensions?: Record<string, unknown>;
      };
    expect((await discover(withTasks)).extensions?.[TASKS]).toEqual({});
    expect((await discover(without)).extensions?.[TASKS]).toBeUndefined();
    // tasks: false also answers a declaring client in the call.
    const answered = await modernClient(without).call("Desk", { text: "Refund order 7" });
    expect(answered.result?.resultType).toBe("complete");
  });
});

describe("a task cancelled", () => {
  it("ends cancelled, kills the agent's process and runs none of its tools after", async () => {
    let ticks = 0;
    let process: AgentProcess | undefined;
    const tick = Tool.create("tick", "Does one slow step", async () => {
      process ??= AgentProcess.current();
      ticks++;
      await pause(100);
      return ToolResult.text(`tick ${ticks}`);
    });
    const model = ScriptedModel.of(
      ...Array.from({ length: 20 }, () => ScriptedModel.toolCall("tick", {})),
      ScriptedModel.text("All ticked."),
    );
    const desk = deskAgent({ model, tools: [tick] });
    const url = await serve(() =>
      createMcpServer({ name: "desk", platform: desk.platform, agents: [desk.agent] }),
    );
    const client = modernClient(url);
    const taskId = (await client.call("Desk", { text: "Tick a lot" })).result?.taskId as string;
    while (ticks < 2) await pause(20);

    const ack = await client.rpc("tasks/cancel", { taskId });
    expect(ack.result).toEqual({ resultType: "complete" });
    const task = (await client.get(taskId)).result;
    expect(task).toMatchObject({ status: "cancelled" });
    expect(task).not.toHaveProperty("result");
    const afterCancel = ticks;
    await pause(500);
    expect(ticks).toBe(afterCancel);
    expect(ticks).toBeLessThan(20);
    expect(process?.status).toBe("killed");
    // Cancelling again (a final task) is the same empty ack; the status stays.
    expect((await client.rpc("tasks/cancel", { taskId })).result).toEqual({ resultType: "complete" });
    expect((await client.get(taskId)).result?.status).toBe("cancelled");
  });

  it("leaves a completed task completed when it is cancelled after", async () => {
    const quick = Tool.create("quick", "Answers at once", async () => ToolResult.text("quick"));
    const url = await serve(() =>
      createMcpServer({ name: "quick", tools: [quick], tasks: { tools: { quick: "required" } } }),
    );
    const client = modernClient(url);
    const taskId = (await client.call("quick")).result?.taskId as string;
    await client.until(taskId, ["completed"]);
    await client.rpc("tasks/cancel", { taskId });
    const task = (await client.get(taskId)).result;
    expect(task?.status).toBe("completed");
    expect(textOf(task?.result)).toBe("quick");
  });
});

describe("task ids and the extension, refused", () => {
  const slow = Tool.create("slow", "Works a while", async (_input, _context, options) => {
    await new Promise((resolve) => setTimeout(resolve, 5_000)).then(() => options.signal?.throwIfAborted());
    return ToolResult.text("slow done");
  });

  it("answers an unknown task id with -32602 on tasks/get, tasks/update and tasks/cancel", async () => {
    const url = await serve(() =>
      createMcpServer({ name: "slow", tools: [slow], tasks: { tools: { slow: "optional" } } }),
    );
    const client = modernClient(url);
    for (const [method, params] of [
      ["tasks/get", { taskId: "no-such-task" }],
      ["tasks/update", { taskId: "no-such-task", inputResponses: {} }],
      ["tasks/cancel", { taskId: "no-such-task" }],
    ] as const) {
      const reply = await client.rpc(method, params);
      expect([method, reply.error?.code]).toEqual([method, -32602]);
    }
  });

  it("refuses tasks/* (-32021) to a client that did not declare the extension, and keeps its tasks from it", async () => {
    const url = await serve(() =>
      createMcpServer({ name: "slow", tools: [slow], tasks: { tools: { slow: "optional" } } }),
    );
    const taskId = (await modernClient(url).call("slow")).result?.taskId as string;
    const reply = await modernClient(url, {}).get(taskId);
    expect(reply.error?.code).toBe(-32021);
    expect(reply.error?.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    await modernClient(url).rpc("tasks/cancel", { taskId });
  });

  it("refuses a tool that requires tasks to a client without the extension (-32021), without running it", async () => {
    let runs = 0;
    const job = Tool.create("job", "Only as a task", async () => {
      runs++;
      return ToolResult.text("ran");
    });
    const url = await serve(() =>
      createMcpServer({ name: "job", tools: [job], tasks: { tools: { job: "required" } } }),
    );
    const reply = await modernClient(url, {}).call("job");
    expect(reply.error?.code).toBe(-32021);
    expect(runs).toBe(0);
  });

  it("refuses a tasks option naming a tool that is not served", () => {
    expect(() =>
      createMcpServer({ name: "x", tools: [slow], tasks: { tools: { nope: "optional" } } }),
    ).toThrow(/tasks\.tools names tools that are not served: nope/);
    expect(() => createMcpServer({ name: "x", tools: [slow], tasks: { tools: {}, ttlMs: 0 } })).toThrow(
      /tasks\.ttlMs must be a positive whole number/,
    );
  });
});

describe("a task that needs input", () => {
  const PayInput = z.object({ tag: z.string(), cents: z.number().int().positive() });
  const paid: string[] = [];
  const pay = Tool.requireApproval(
    Tool.fromFunction("pay", "Pays an amount in cents", PayInput, z.string(), (input) => {
      paid.push(`${input.tag} ${input.cents}`);
      return `paid ${input.cents} for ${input.tag}`;
    }),
    { message: (input) => `Pay ${input.cents} cents for ${input.tag}?` },
  );
  const withElicitation = { elicitation: {}, extensions: { [TASKS]: {} } };

  async function payTask(tag: string) {
    const url = await serve(() =>
      createMcpServer({ name: "pay", tools: [pay], tasks: { tools: { pay: "required" } } }),
    );
    const client = modernClient(url, withElicitation);
    const taskId = (await client.call("pay", { tag, cents: 250 })).result?.taskId as string;
    const asking = await client.until(taskId, ["input_required", "completed", "failed"]);
    return { client, taskId, asking };
  }

  it("asks for the approval on tasks/get, runs the tool once when tasks/update approves", async () => {
    paid.length = 0;
    const { client, taskId, asking } = await payTask("t1");
    expect(asking.status).toBe("input_required");
    const requests = asking.inputRequests as Record<string, { method: string; params: { message: string } }>;
    const [key] = Object.keys(requests);
    expect(requests[key as string]?.method).toBe("elicitation/create");
    expect(requests[key as string]?.params.message).toContain("Pay 250 cents for t1?");
    expect(asking).not.toHaveProperty("requestState");
    expect(paid).toEqual([]);

    const ack = await client.rpc("tasks/update", {
      taskId,
      inputResponses: { [key as string]: { action: "accept", content: { approve: true } } },
    });
    expect(ack.result).toEqual({ resultType: "complete" });
    const done = await client.until(taskId, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(textOf(done.result)).toBe("paid 250 for t1");
    expect(paid).toEqual(["t1 250"]);
  });

  it("completes with the refusal (isError) when tasks/update declines, and the tool never runs", async () => {
    paid.length = 0;
    const { client, taskId, asking } = await payTask("t2");
    const [key] = Object.keys(asking.inputRequests as object);
    await client.rpc("tasks/update", {
      taskId,
      inputResponses: { [key as string]: { action: "decline" } },
    });
    const done = await client.until(taskId, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ isError: true });
    expect(textOf(done.result)).toMatch(/declined/i);
    expect(paid).toEqual([]);
  });

  it("ignores answers to questions it did not ask, and stays input_required", async () => {
    const { client, taskId, asking } = await payTask("t3");
    const ack = await client.rpc("tasks/update", {
      taskId,
      inputResponses: { "not-asked": { action: "accept", content: { approve: true } } },
    });
    expect(ack.result).toEqual({ resultType: "complete" });
    const still = (await client.get(taskId)).result;
    expect(still?.status).toBe("input_required");
    expect(Object.keys(still?.inputRequests as object)).toEqual(Object.keys(asking.inputRequests as object));
    await client.rpc("tasks/cancel", { taskId });
    expect((await client.get(taskId)).result?.status).toBe("cancelled");
  });

  it("runs a tool's own requireInput round inside the task (input_required, then completed)", async () => {
    const askName = Tool.create("ask_name", "Asks a name", async () => {
      const call = McpServerCall.current() as McpServerCall;
      const answer = call.inputResponses?.name as { content?: { name?: string } } | undefined;
      if (!answer?.content?.name)
        return call.requireInput(
          {
            name: {
              method: "elicitation/create",
              params: {
                mode: "form",
                message: "Your name?",
                requestedSchema: { type: "object", properties: { name: { type: "string" } } },
              },
            },
          },
          { round: 1 },
        );
      return ToolResult.text(
        `Hello, ${answer.content.name} (round ${(call.requestState as { round: number }).round})`,
      );
    });
    const url = await serve(() =>
      createMcpServer({ name: "ask", tools: [askName], tasks: { tools: { ask_name: "optional" } } }),
    );
    const client = modernClient(url, withElicitation);
    const taskId = (await client.call("ask_name")).result?.taskId as string;
    await client.until(taskId, ["input_required"]);
    await client.rpc("tasks/update", {
      taskId,
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
    });
    const done = await client.until(taskId, ["completed", "failed"]);
    expect(textOf(done.result)).toBe("Hello, Ada (round 1)");
  });
});

describe("an expired task", () => {
  it("is forgotten after its ttlMs (tasks/get: -32602) and its work is aborted", async () => {
    let finished = false;
    let aborted = false;
    const slow = Tool.create(
      "slow",
      "Works a while",
      InputSchema.of(Param.string("label", "A label")),
      async (_input, _context, options) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1_500);
          options.signal?.addEventListener("abort", () => {
            aborted = true;
            clearTimeout(timer);
            resolve();
          });
        });
        finished = !aborted;
        return ToolResult.text("slow done");
      },
    );
    const url = await serve(() =>
      createMcpServer({ name: "slow", tools: [slow], tasks: { tools: { slow: "required" }, ttlMs: 300 } }),
    );
    const client = modernClient(url);
    const created = await client.call("slow", { label: "x" });
    expect(created.result).toMatchObject({ resultType: "task", ttlMs: 300 });
    const taskId = created.result?.taskId as string;
    expect((await client.get(taskId)).result?.status).toBe("working");
    await pause(600);
    expect((await client.get(taskId)).error?.code).toBe(-32602);
    expect(aborted).toBe(true);
    await pause(1_200);
    expect(finished).toBe(false);
  });
});

describe("a served agent that waits for a person, run as a task", () => {
  const PayInput = z.object({ tag: z.string(), cents: z.number().int().positive() });
  function payingDesk() {
    const paid: string[] = [];
    const pay = Tool.requireApproval(
      Tool.fromFunction("pay", "Pays an amount in cents", PayInput, z.string(), (input) => {
        paid.push(`${input.tag} ${input.cents}`);
        return `paid ${input.cents} for ${input.tag}`;
      }),
      { message: (input) => `Pay ${input.cents} cents for ${input.tag}?` },
    );
    const seen: { process?: AgentProcess } = {};
    const model = ScriptedModel.of(() => {
      seen.process = AgentProcess.current();
      return ScriptedModel.toolCall("pay", { tag: "order-7", cents: 4900 });
    }, ScriptedModel.text("Refund paid."));
    const desk = deskAgent({ model, tools: [pay] });
    return { desk, paid, seen };
  }
  const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };

  it("asks in the task (input_required) and runs the same process on when tasks/update approves", async () => {
    const { desk, paid } = payingDesk();
    const url = await serve(() =>
      createMcpServer({ name: "desk", platform: desk.platform, agents: [desk.agent] }),
    );
    const client = modernClient(url, capabilities);
    const taskId = (await client.call("Desk", { text: "Refund order 7" })).result?.taskId as string;
    const asking = await client.until(taskId, ["input_required", "completed", "failed"]);
    expect(asking.status).toBe("input_required");
    const requests = asking.inputRequests as Record<string, { params: { message: string } }>;
    const [key] = Object.keys(requests);
    expect(requests[key as string]?.params.message).toContain("Pay 4900 cents for order-7?");
    expect(paid).toEqual([]);

    await client.rpc("tasks/update", {
      taskId,
      inputResponses: { [key as string]: { action: "accept", content: { approve: true } } },
    });
    const done = await client.until(taskId, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(textOf(done.result)).toContain("Refund paid.");
    expect(paid).toEqual(["order-7 4900"]);
    // The model was asked twice in all: the run went on, it did not start again.
    expect(desk.model.requests).toHaveLength(2);
  });

  it("kills the waiting process when the task is cancelled; the tool never runs", async () => {
    const { desk, paid, seen } = payingDesk();
    const url = await serve(() =>
      createMcpServer({ name: "desk", platform: desk.platform, agents: [desk.agent] }),
    );
    const client = modernClient(url, capabilities);
    const taskId = (await client.call("Desk", { text: "Refund order 7" })).result?.taskId as string;
    const asking = await client.until(taskId, ["input_required", "completed", "failed"]);
    expect(asking.status).toBe("input_required");
    const processId = seen.process?.id as string;
    expect((await desk.platform.process(processId))?.status).toBe("waiting");
    await client.rpc("tasks/cancel", { taskId });
    expect((await client.get(taskId)).result?.status).toBe("cancelled");
    await pause(100);
    expect((await desk.platform.process(processId))?.status).toBe("killed");
    expect(paid).toEqual([]);
    expect(desk.model.requests).toHaveLength(1);
  });
});

describe("a tool that throws the SDK's ProtocolError", () => {
  it("fails its task with that error, and answers a call outside a task with it", async () => {
    const { ProtocolError } = await import("@modelcontextprotocol/server");
    const broken = Tool.create("broken", "Breaks down", async () => {
      throw new ProtocolError(-32603, "Broke down.");
    });
    const url = await serve(() =>
      createMcpServer({ name: "broken", tools: [broken], tasks: { tools: { broken: "optional" } } }),
    );
    const client = modernClient(url);
    const taskId = (await client.call("broken")).result?.taskId as string;
    const failed = await client.until(taskId, ["completed", "failed"]);
    expect(failed).toMatchObject({ status: "failed", error: { code: -32603, message: "Broke down." } });
    expect(failed).not.toHaveProperty("result");
    const direct = await modernClient(url, {}).call("broken");
    expect(direct.error).toMatchObject({ code: -32603, message: "Broke down." });
  });
});
