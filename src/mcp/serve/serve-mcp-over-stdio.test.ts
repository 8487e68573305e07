import { PassThrough } from "node:stream";
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { type LogFields, Logger } from "../../tool/logger.js";
import { serveMcpOverStdio } from "./serve-mcp-over-stdio.js";

interface Reply {
  readonly id?: unknown;
  readonly result?: { tools?: { name: string }[] };
  readonly error?: { code: number; message: string };
}

const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});

async function started(maxMessageBytes: number) {
  const warnings: { message: string; fields: LogFields | undefined }[] = [];
  const previous = Logger.setDefault({
    ...Logger.silent,
    warn: (message, fields) => warnings.push({ message, fields }),
  });
  restore.push(() => Logger.setDefault(previous));
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const replies: Reply[] = [];
  let buffered = "";
  stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) replies.push(JSON.parse(line) as Reply);
  });
  const server = new McpServer({ name: "t", version: "1" });
  server.registerTool("ping", { description: "Answers pong" }, async () => ({
    content: [{ type: "text", text: "pong" }],
  }));
  const endpoint = await serveMcpOverStdio(server, { stdin, stdout, maxMessageBytes });
  restore.push(() => void endpoint.close());
  const reply = async (id: unknown): Promise<Reply> => {
    for (let waited = 0; waited < 2_000; waited += 10) {
      const found = replies.find((candidate) => candidate.id === id);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no reply ${String(id)}`);
  };
  return { stdin, replies, reply, warnings, endpoint };
}

const list = (id: unknown) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: {} })}\n`;

describe("serveMcpOverStdio", () => {
  it("answers an oversized message, arriving in pieces, with its id and goes on serving", async () => {
    const { stdin, reply, warnings } = await started(1_000);
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: "big-1",
      method: "tools/list",
      params: { pad: "x".repeat(5_000) },
    });
    for (let at = 0; at < big.length; at += 700) stdin.write(big.slice(at, at + 700));
    stdin.write(`\n${list(2)}`);
    expect(await reply("big-1")).toEqual({
      jsonrpc: "2.0",
      id: "big-1",
      error: {
        code: -32600,
        message: "Message too large: this server accepts messages of up to 1000 bytes.",
      },
    });
    expect((await reply(2)).result?.tools?.map((tool) => tool.name)).toEqual(["ping"]);
    expect(warnings).toEqual([
      {
        message: "MCP over stdio: refused a message over 1000 bytes; still serving.",
        fields: { maxMessageBytes: 1_000, id: "big-1" },
      },
    ]);
  });

  it("passes a message of exactly the limit, and several messages in one chunk", async () => {
    const { stdin, reply } = await started(200);
    const exact = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const padded = `${exact.slice(0, -1)}${" ".repeat(200 - exact.length)}}`;
    expect(Buffer.byteLength(padded)).toBe(200);
    stdin.write(`${padded}\n${list(2)}${list(3)}`);
    expect((await reply(1)).result?.tools).toHaveLength(1);
    expect((await reply(3)).result?.tools).toHaveLength(1);
  });

  it("answers with id null when the oversized message does not start with its id", async () => {
    const { stdin, reply } = await started(100);
    stdin.write(`{"method":"tools/list","pad":"${"y".repeat(500)}","id":9,"jsonrpc":"2.0"}\n`);
    expect((await reply(null)).error?.code).toBe(-32600);
  });

  it("settles `closed` when its input ends", async () => {
    const { stdin, endpoint } = await started(100);
    stdin.end();
    await expect(endpoint.closed).resolves.toBeUndefined();
  });
});
