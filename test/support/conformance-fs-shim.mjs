// Loaded with `node --import` before the MCP conformance suite's CLI. The CLI
// imports `globSync` from "fs" (Node >= 22), which Node 20 lacks, so the CLI
// fails to load. On a Node without it, this routes the CLI's own "fs" imports
// to a stand-in: everything of node:fs, plus a `globSync` that says it is
// missing (the CLI uses it only in its `tier-check` command). On Node >= 22
// it does nothing.
import fs from "node:fs";
import { register } from "node:module";

const STANDIN = `import fs from "node:fs";
export * from "node:fs";
export default fs;
export function globSync() {
  throw new Error("fs.globSync needs Node >= 22 (the conformance CLI uses it only for tier-check).");
}`;

const HOOKS = `const STANDIN_URL = ${JSON.stringify(`data:text/javascript,${encodeURIComponent(STANDIN)}`)};
export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes("/@modelcontextprotocol/conformance/")) {
    return { url: STANDIN_URL, shortCircuit: true };
  }
  return next(specifier, context);
}`;

if (typeof fs.globSync !== "function") {
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, import.meta.url);
}
