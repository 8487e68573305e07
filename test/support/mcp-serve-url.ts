import type { ChildProcessWithoutNullStreams } from "node:child_process";

/** The URL an `embabel-ts mcp-serve --http` child prints once it listens; rejects if it exits first. */
export function mcpServeUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`mcp-serve exited (${code})`)));
  });
}
