import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { z } from "zod";
import { PlaybookTool } from "../../src/agentic/playbook-tool.js";
import { UnfoldingTool } from "../../src/progressive/unfolding-tool.js";
import { InputSchema } from "../../src/tool/input-schema.js";
import { ListSink } from "../../src/tool/list-sink.js";
import { llmTool } from "../../src/tool/llm-tool.js";
import { Param } from "../../src/tool/param.js";
import { Tool, type ToolCallOptions } from "../../src/tool/tool.js";
import { ToolCallContext } from "../../src/tool/tool-call-context.js";
import { ToolMetadata } from "../../src/tool/tool-metadata.js";
import { ToolResult } from "../../src/tool/tool-result.js";
import { DEAD_MCP_SERVER, deadMcpTool } from "./dead-mcp-server.js";

/** An artifact `make_report` returns; the model sees only the result's text. */
export class Report {
  constructor(
    readonly serial: number,
    readonly title: string,
  ) {}
}

/** The state one fuzz case shares between its tools and the property checks. */
export class FuzzWorld {
  /** Put in the loop's ToolCallContext; must never reach the model. */
  readonly secret = `secret-${randomUUID()}`;
  readonly context = ToolCallContext.of({ apiKey: this.secret, tenant: { key: this.secret } });
  /** Every artifact a tool produced, in production order. */
  readonly produced: Report[] = [];
  /** Where the sinking wrapper put them. */
  readonly sink = new ListSink<Report>();
  /** Aborted by the `hang` tool, like a caller giving up on a hanging tool. */
  readonly abort = new AbortController();
  /** Names of the tools that ran, in the order they started. */
  readonly ran: string[] = [];
  /** Loop ids of the playbook's nested loops in which `search` ran (it unlocks `summarize`). */
  readonly searchedLoops = new Set<string>();
  /** Problems the tools themselves noticed (a missing context entry, no signal, ...). */
  readonly problems: string[] = [];
}

/**
 * One kind of tool the generated replies may call: how to build it for a case,
 * and arguments it accepts (the generator mixes them with broken ones). Add a
 * spec here to put a new kind of tool (locked, unbound, an MCP tool) under the fuzzer.
 */
export interface FuzzToolSpec {
  readonly name: string;
  readonly build: (world: FuzzWorld) => Tool;
  readonly validArgs: fc.Arbitrary<Record<string, unknown>>;
  /** Names of tools this one makes available once called (an unfolding facade's children). */
  readonly unlocks?: readonly string[];
  /**
   * Offered by the PromptRunner itself (a tool chaining placeholder), not built
   * here: only the runs that set that up offer it; elsewhere it is an unknown name.
   */
  readonly offeredByRunner?: boolean;
  /** Checks the answer to a call of this tool when it was offered; returns the problem, if any. */
  readonly checkAnswer?: (output: { readonly type: string; readonly value?: unknown }) => string | undefined;
}

const text = fc.string({ maxLength: 20 });

function checkContext(world: FuzzWorld, name: string, context: ToolCallContext | undefined): void {
  if (context?.get("apiKey") !== world.secret)
    world.problems.push(`${name} did not get the caller's context`);
  if (typeof context?.get(ToolCallContext.LOOP_ID_KEY) !== "string")
    world.problems.push(`${name} got no loop id in its context`);
}

const explosions: readonly (() => unknown)[] = [
  () => new Error("kaboom"),
  () => new Error(""),
  () => "a thrown string",
  () => undefined,
  () => ({ code: 42 }),
  () => new RangeError("Maximum call stack size exceeded"),
];

/** The loop's in-band answer to arguments that are not JSON or miss the tool's schema. */
function isArgumentError(name: string, output: { readonly type: string; readonly value?: unknown }): boolean {
  return (
    output.type === "error-text" &&
    new RegExp(`^Invalid (JSON )?arguments for tool '${name}'`).test(String(output.value))
  );
}

/** The tools every fuzz case offers. */
export const FUZZ_TOOLS: readonly FuzzToolSpec[] = [
  {
    name: "echo",
    validArgs: fc.record(
      { text, times: fc.integer({ min: 1, max: 3 }), mode: fc.constantFrom("plain", "loud") },
      { requiredKeys: ["text"] },
    ),
    build: (world) =>
      Tool.fromFunction(
        "echo",
        "Repeats the text",
        z.object({
          text: z.string(),
          times: z.number().int().min(1).max(3).optional(),
          mode: z.enum(["plain", "loud"]).optional(),
        }),
        z.string(),
        (input) => {
          world.ran.push("echo");
          return input.text.repeat(input.times ?? 1);
        },
      ),
  },
  {
    name: "make_report",
    validArgs: fc.record({ title: text }),
    build: (world) =>
      Tool.sinkArtifacts(
        Tool.create(
          "make_report",
          "Writes a report",
          InputSchema.of(Param.string("title", "The report's title")),
          (input) => {
            world.ran.push("make_report");
            const report = new Report(world.produced.length, JSON.parse(input).title);
            world.produced.push(report);
            return ToolResult.withArtifact(`report ${report.serial} written`, report);
          },
        ),
        Report,
        world.sink,
      ),
  },
  {
    name: "explode",
    validArgs: fc.record({ how: fc.nat(explosions.length - 1) }, { requiredKeys: [] }),
    build: (world) =>
      Tool.create("explode", "Fails in a chosen way", (input) => {
        world.ran.push("explode");
        const how = (JSON.parse(input) as { how?: number }).how;
        if (typeof how === "number" && explosions[how]) throw explosions[how]();
        return ToolResult.error("explode was told nothing");
      }),
  },
  {
    name: "dead_server",
    validArgs: fc.constant({}),
    // An MCP tool whose server died: every call rejects after a turn of the event loop.
    build: (world) =>
      Tool.create("dead_server", "A remote tool whose server is gone", async () => {
        world.ran.push("dead_server");
        await new Promise((resolve) => setImmediate(resolve));
        throw Object.assign(new Error("MCP error -32000: Connection closed"), { code: -32000 });
      }),
  },
  {
    name: "hang",
    validArgs: fc.constant({}),
    // Never answers; the caller gives up (aborts) once it is entered. Honours the signal.
    build: (world) =>
      Tool.create(
        "hang",
        "Never answers",
        (_input, context, options?: ToolCallOptions) =>
          new Promise<ToolResult>((_resolve, reject) => {
            world.ran.push("hang");
            checkContext(world, "hang", context);
            const signal = options?.signal;
            if (!signal) {
              world.problems.push("hang got no abort signal");
              reject(new Error("no signal"));
              return;
            }
            signal.addEventListener("abort", () => reject(signal.reason), { once: true });
            setImmediate(() => world.abort.abort(new Error("fuzz: caller gave up on a hanging tool")));
          }),
      ),
  },
  {
    name: "finish",
    validArgs: fc.record({ answer: text }, { requiredKeys: [] }),
    build: (world) =>
      Tool.create("finish", "Ends with its answer", ToolMetadata.create({ returnDirect: true }), (input) => {
        world.ran.push("finish");
        return ToolResult.text(`finished: ${String((JSON.parse(input) as { answer?: string }).answer)}`);
      }),
  },
  {
    name: "whoami",
    validArgs: fc.constant({}),
    build: (world) =>
      Tool.create("whoami", "Reads the caller's context", (_input, context) => {
        world.ran.push("whoami");
        checkContext(world, "whoami", context);
        return ToolResult.text("you are the caller");
      }),
  },
  {
    name: "toolbox",
    validArgs: fc.constant({}),
    unlocks: ["count_words"],
    build: (world) =>
      UnfoldingTool.of("toolbox", "More tools", [
        Tool.create(
          "count_words",
          "Counts words",
          InputSchema.of(Param.string("text", "The text")),
          (input) => {
            world.ran.push("count_words");
            return ToolResult.text(String(String(JSON.parse(input).text).split(/\s+/).length));
          },
        ),
      ]),
  },
  {
    name: "get_weather",
    validArgs: fc.record({ city: text }),
    // A real MCP tool whose stdio server was killed (dead-mcp-server.ts).
    build: () => deadMcpTool(),
    checkAnswer: (output) =>
      output.type === "error-text" &&
      (String(output.value).startsWith(`Error: MCP server '${DEAD_MCP_SERVER}' `) ||
        isArgumentError("get_weather", output))
        ? undefined
        : "the dead MCP server's tool was not answered in-band naming the server",
  },
  {
    name: "playbook",
    validArgs: fc.record({ text }),
    // A PlaybookTool: its nested loop runs on the model named "playbook" (its own generated
    // replies) inside an agent process; outside one it answers in-band that there is none.
    build: (world) =>
      PlaybookTool.create("playbook", "Searches, then summarizes")
        .withLlm({ model: "playbook" })
        .withMaxIterations(4)
        .withTools(
          Tool.create(
            "search",
            "Searches",
            InputSchema.of(Param.string("text", "What to find")),
            (_input, context) => {
              world.ran.push("search");
              checkContext(world, "search", context);
              const loopId = context?.loopId();
              if (loopId) world.searchedLoops.add(loopId);
              return ToolResult.text("found it");
            },
          ),
        )
        .withTool(
          Tool.create("summarize", "Summarizes what was found", (_input, context) => {
            world.ran.push("summarize");
            const loopId = context?.loopId();
            if (!loopId || !world.searchedLoops.has(loopId))
              world.problems.push("summarize ran while locked");
            return ToolResult.text("the summary");
          }),
        )
        .unlockedBy("search"),
  },
  {
    name: "closeAccount",
    validArgs: fc.record({ reason: text }),
    offeredByRunner: true,
    build: () => {
      throw new Error(
        "closeAccount is a placeholder the PromptRunner offers (withToolChainingFrom(Account))",
      );
    },
    // Unbound, whatever the arguments: exactly the spec's text.
    checkAnswer: (output) =>
      (output.type === "text" && output.value === UNBOUND_ANSWER) || isArgumentError("closeAccount", output)
        ? undefined
        : "not the unbound placeholder's answer",
  },
];

/** What the playbook's locked `summarize` answers until `search` ran in its loop. */
export const LOCKED_ANSWER = "This tool is not yet available. You must first use: search";

/** The names the playbook's nested loop offers. */
export const PLAYBOOK_TOOL_NAMES: readonly string[] = ["search", "summarize"];

/** A type whose `@llmTool` method the chaining runs offer; no tool ever returns one, so it stays unbound. */
export class Account {
  @llmTool({ description: "Closes the account", input: z.object({ reason: z.string() }) })
  closeAccount({ reason }: { reason: string }): string {
    throw new Error(`an unbound placeholder ran closeAccount (${reason})`);
  }
}

/** What an unbound placeholder answers, in the spec's words. */
export const UNBOUND_ANSWER =
  "This tool is not yet available. You must first retrieve a single Account instance.";

/** Every name a reply may call correctly at some point: the tools and what they unlock. */
export const KNOWN_NAMES: readonly string[] = FUZZ_TOOLS.flatMap((spec) => [
  spec.name,
  ...(spec.unlocks ?? []),
]);

/** The tools of one case. */
export function fuzzTools(world: FuzzWorld): Tool[] {
  return FUZZ_TOOLS.filter((spec) => !spec.offeredByRunner).map((spec) => spec.build(world));
}
