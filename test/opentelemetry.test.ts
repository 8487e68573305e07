import { SpanStatusCode, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, describe, expect, it } from "vitest";
import {
  ConcertPlanner,
  concertPlannerScript,
  PerformanceFinder,
} from "../examples/concert-planner/index.js";
import { UserInput } from "../examples/user-input.js";
import { AgentPlatform, ProcessOptions, Tool } from "../src/index.js";
import { ScriptedModel } from "../src/testing/index.js";

// The real OpenTelemetry SDK with its in-memory exporter, registered globally
// as an application would (no context manager: our spans must nest regardless).
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

async function runConcertPlanner() {
  exporter.reset();
  const platform = AgentPlatform.create({
    models: { default: new ScriptedModel(concertPlannerScript()) },
    prices: { scripted: { inputPerMillion: 2, outputPerMillion: 8 } },
  });
  const planner = platform.deploy(ConcertPlanner);
  platform.deploy(PerformanceFinder);
  const process = await platform.runAgent(planner, UserInput.create({ content: "A Mozart evening" }), {
    processOptions: ProcessOptions.DEFAULT.withContextId("conversation-7"),
  });
  return { process, spans: exporter.getFinishedSpans() };
}

function parentOf(span: ReadableSpan, spans: readonly ReadableSpan[]): ReadableSpan | undefined {
  const parentId = span.parentSpanContext?.spanId;
  return spans.find((candidate) => candidate.spanContext().spanId === parentId);
}

function ancestry(span: ReadableSpan, spans: readonly ReadableSpan[]): string[] {
  const names: string[] = [];
  for (let current: ReadableSpan | undefined = span; current; current = parentOf(current, spans)) {
    names.unshift(current.name);
  }
  return names;
}

describe("OpenTelemetry spans of an agent run", () => {
  it("nest process → action → LLM call → tool call → subagent process, in one trace", async () => {
    const { process, spans } = await runConcertPlanner();
    expect(process.status).toBe("completed");
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    const child = spans.find((span) => span.name === "invoke_agent PerformanceFinder");
    expect(child).toBeDefined();
    const path = ancestry(child as ReadableSpan, spans);
    expect(path).toEqual([
      "invoke_agent ConcertPlanner",
      expect.stringMatching(/^embabel\.action /),
      "chat scripted",
      "execute_tool PerformanceFinder",
      "invoke_agent PerformanceFinder",
    ]);
    // The subagent's own LLM calls sit under its own action.
    const childChats = spans.filter(
      (span) =>
        span.name === "chat scripted" && ancestry(span, spans).includes("invoke_agent PerformanceFinder"),
    );
    expect(childChats.length).toBeGreaterThan(0);
    expect(ancestry(childChats[0] as ReadableSpan, spans).at(-2)).toMatch(/^embabel\.action /);
  });

  it("carry the GenAI semantic-convention attributes", async () => {
    const { process, spans } = await runConcertPlanner();
    const root = spans.find((span) => span.name === "invoke_agent ConcertPlanner");
    expect(root?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "ConcertPlanner",
      "gen_ai.agent.id": process.id,
      "gen_ai.conversation.id": "conversation-7",
    });
    const chat = spans.find((span) => span.name === "chat scripted");
    expect(chat?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted",
      "gen_ai.provider.name": "embabel-ts",
    });
    expect(chat?.attributes["gen_ai.usage.output_tokens"]).toEqual(expect.any(Number));
    const tool = spans.find((span) => span.name === "execute_tool find_venues");
    expect(tool?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "find_venues",
      "gen_ai.tool.call.id": expect.any(String),
    });
    expect(parentOf(tool as ReadableSpan, spans)?.name).toBe("chat scripted");
  });

  it("mark a failing tool call's span with the error", async () => {
    exporter.reset();
    const platform = AgentPlatform.create({
      models: {
        default: ScriptedModel.of(ScriptedModel.toolCall("explode", {}), ScriptedModel.text("recovered")),
      },
    });
    await platform.runInProcess((context) =>
      context
        .ai()
        .withTool(
          Tool.create("explode", "Always fails", () => {
            throw new TypeError("fuse lit");
          }),
        )
        .generateText("go"),
    );
    const tool = exporter.getFinishedSpans().find((span) => span.name === "execute_tool explode");
    expect(tool?.status).toMatchObject({ code: SpanStatusCode.ERROR, message: "fuse lit" });
    expect(tool?.attributes["error.type"]).toBe("TypeError");
    expect(tool?.events.map((event) => event.name)).toContain("exception");
  });

  it("end every span, and start them in order inside their parents", async () => {
    const { spans } = await runConcertPlanner();
    for (const span of spans) {
      const parent = parentOf(span, spans);
      if (!parent) continue;
      const start = span.startTime[0] * 1e9 + span.startTime[1];
      const parentStart = parent.startTime[0] * 1e9 + parent.startTime[1];
      expect(start).toBeGreaterThanOrEqual(parentStart);
    }
    expect(spans.filter((span) => !span.parentSpanContext).map((span) => span.name)).toEqual([
      "invoke_agent ConcertPlanner",
    ]);
  });
});
