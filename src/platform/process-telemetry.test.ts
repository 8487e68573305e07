import { describe, expect, it } from "vitest";
import { installRecordingTracer } from "../../test/support/recording-tracer.js";
import { HashEmbeddingModel } from "../testing/hash-embedding-model.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { AgentPlatform } from "./agent-platform.js";
import { AgentProcess } from "./agent-process.js";
import { defineAgent } from "./define-agent.js";
import { startActionSpan, startProcessSpan } from "./process-telemetry.js";

const spans = installRecordingTracer();

const failing = defineAgent({
  name: "Fragile",
  description: "Drafts, then breaks",
  actions: [
    { name: "draft", input: String, output: Number, run: (text: string) => text.length },
    {
      name: "publish",
      input: Number,
      output: Boolean,
      achievesGoal: { description: "Published" },
      run: () => {
        throw new Error("printer on fire");
      },
    },
  ],
});

describe("startProcessSpan", () => {
  it("opens one span per process and ends it with the status", async () => {
    spans.length = 0;
    const process = await AgentPlatform.create({ models: { main: new ScriptedModel() } }).runAgent(
      failing,
      "text",
    );
    const processSpan = spans.find((span) => span.name === "embabel.process Fragile");
    expect(processSpan).toMatchObject({
      ended: true,
      attributes: {
        "embabel.process.id": process.id,
        "embabel.agent.name": "Fragile",
        "embabel.process.status": "failed",
        "embabel.process.status_reason": "printer on fire",
      },
    });
    expect(processSpan?.status?.message).toBe("printer on fire");
  });

  it("names a function process span without an agent", () => {
    spans.length = 0;
    const { process } = AgentProcess.launch();
    startProcessSpan(process, undefined).end();
    expect(spans.map((span) => span.name)).toEqual(["embabel.process"]);
  });
});

describe("startActionSpan", () => {
  it("opens one span per action with its outcome", async () => {
    spans.length = 0;
    await AgentPlatform.create({ models: { main: new ScriptedModel() } }).runAgent(failing, "text");
    const actions = spans.filter((span) => span.name.startsWith("embabel.action"));
    expect(actions.map((span) => [span.name, span.attributes["embabel.action.outcome"], span.ended])).toEqual(
      [
        ["embabel.action draft", "succeeded", true],
        ["embabel.action publish", "failed", true],
      ],
    );
    expect(actions[1]?.status?.message).toBe("printer on fire");
  });

  it("carries the process id", () => {
    spans.length = 0;
    const { process } = AgentProcess.launch();
    startActionSpan(process, "x").end();
    expect(spans[0]?.attributes["embabel.process.id"]).toBe(process.id);
  });
});

describe("startEmbeddingSpan", () => {
  it("opens one span per embedding call with the model and tokens, and records a failure", async () => {
    spans.length = 0;
    const platform = AgentPlatform.create({
      models: {},
      embeddingModels: {
        ok: new HashEmbeddingModel(),
        broken: new HashEmbeddingModel({ error: new Error("down") }),
      },
      embeddingRoles: { default: "ok" },
    });
    const process = await platform.runInProcess(async (context) => {
      await context.embed(["two words"]);
      await context.embed(["x"], { model: "broken" });
    });
    const embeddingSpans = spans.filter((span) => span.name === "embabel.embedding.call");
    expect(embeddingSpans).toHaveLength(2);
    expect(embeddingSpans[0]).toMatchObject({
      ended: true,
      attributes: {
        "embabel.process.id": process.id,
        "gen_ai.request.model": "hash-embedding",
        "gen_ai.system": "embabel-ts.hash",
        "embabel.embedding.inputs": 1,
        "gen_ai.usage.input_tokens": 2,
      },
    });
    expect(embeddingSpans[1]?.status?.message).toBe("down");
  });
});
