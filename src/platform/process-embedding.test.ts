import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { HashEmbeddingModel } from "../testing/hash-embedding-model.js";
import { AgentPlatform } from "./agent-platform.js";
import { AgentProcess } from "./agent-process.js";
import type { AgentProcessEvent } from "./process-event.js";
import { operationContext } from "./process-operation-context.js";
import { ProcessOptions } from "./process-options.js";

function platformWith(model: HashEmbeddingModel, prices = {}) {
  return AgentPlatform.create({ models: {}, embeddingModels: { default: model }, prices });
}

const cosine = (a: number[], b: number[]) =>
  a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe("OperationContext.embed", () => {
  it("returns one vector per text, in order, from the platform's embedding model", async () => {
    const model = new HashEmbeddingModel({ dimensions: 64 });
    const texts = ["ripe red apple", "Red apple!", "quarterly tax return"];
    const process = await platformWith(model).runInProcess((context) => context.embed(texts));
    const [ripe, red, tax] = process.result as number[][];
    expect(process.status).toBe("completed");
    expect(ripe).toHaveLength(64);
    expect(cosine(ripe as number[], ripe as number[])).toBeCloseTo(1, 10);
    expect(cosine(ripe as number[], red as number[])).toBeGreaterThan(
      cosine(ripe as number[], tax as number[]),
    );
    expect(model.requests).toEqual([texts]);
  });

  it("records the call on the process: tokens as input, cost, model, event", async () => {
    const events: AgentProcessEvent[] = [];
    const model = new HashEmbeddingModel({ modelId: "text-embedding-3-small", provider: "openai.embedding" });
    const process = await platformWith(model).runInProcess(
      async (context) => {
        await context.embed(["one two three", "four"]);
        await context.embed(["five six"]);
      },
      { processOptions: ProcessOptions.DEFAULT.withListener((event) => events.push(event)) },
    );
    expect(process.embeddingInvocations).toBe(2);
    expect(process.llmInvocations).toBe(0);
    expect(process.usage).toEqual({ inputTokens: 6, outputTokens: 0, totalTokens: 6 });
    expect(process.costUsd).toBeCloseTo((6 * 0.02) / 1_000_000, 12);
    expect(process.modelsUsed).toEqual([
      { name: "default", provider: "openai.embedding", modelId: "text-embedding-3-small", kind: "embedding" },
    ]);
    const calls = events.filter((event) => event.type === "embedding-call-end");
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      processId: process.id,
      model: "default",
      provider: "openai.embedding",
      modelId: "text-embedding-3-small",
      inputs: 2,
      tokens: 4,
    });
  });

  it("counts a child process's embedding calls in its parent", async () => {
    const platform = platformWith(new HashEmbeddingModel());
    let child: AgentProcess | undefined;
    const parent = await platform.runInProcess(async (context) => {
      child = await platform.runInProcess((inner) => inner.embed(["a b c"]), { parent: context.process });
    });
    expect(child?.embeddingInvocations).toBe(1);
    expect(parent.embeddingInvocations).toBe(1);
    expect(parent.usage.inputTokens).toBe(3);
  });

  it("chunks texts by the model's maxEmbeddingsPerCall and counts one invocation", async () => {
    const model = new HashEmbeddingModel({ maxEmbeddingsPerCall: 2 });
    const process = await platformWith(model).runInProcess((context) =>
      context.embed(["a", "b", "c", "d", "e"]),
    );
    expect(model.requests).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect(process.result).toHaveLength(5);
    expect(process.embeddingInvocations).toBe(1);
  });

  it("makes no call for no texts", async () => {
    const model = new HashEmbeddingModel();
    const process = await platformWith(model).runInProcess((context) => context.embed([]));
    expect(process.result).toEqual([]);
    expect(model.requests).toEqual([]);
    expect(process.embeddingInvocations).toBe(0);
  });

  it("refuses to call once the token budget is spent, and the process ends terminated", async () => {
    const model = new HashEmbeddingModel();
    const process = await platformWith(model).runInProcess(
      async (context) => {
        await context.embed(["one two three four five"]);
        await context.embed(["never sent"]);
      },
      { processOptions: ProcessOptions.DEFAULT.withBudget({ tokens: 5 }) },
    );
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("Max tokens of 5 reached");
    expect(model.requests).toEqual([["one two three four five"]]);
  });

  it("counts embedding cost against the cost budget", async () => {
    const model = new HashEmbeddingModel({ modelId: "pricey" });
    const platform = platformWith(model, { pricey: { inputPerMillion: 1_000_000, outputPerMillion: 0 } });
    const process = await platform.runInProcess(
      async (context) => {
        await context.embed(["a b c"]);
        await context.embed(["d"]);
      },
      { processOptions: ProcessOptions.DEFAULT.withBudget({ cost: 2 }) },
    );
    expect(process.costUsd).toBe(3);
    expect(process.status).toBe("terminated");
    expect(process.statusReason).toBe("Exceeded budget of $2.0000: cost=$3.0000");
  });

  it("fails the process with the provider's error and records nothing", async () => {
    const model = new HashEmbeddingModel({ error: new Error("provider down") });
    const process = await platformWith(model).runInProcess((context) => context.embed(["x"]));
    expect(process.status).toBe("failed");
    expect((process.failure as Error).message).toBe("provider down");
    expect(process.embeddingInvocations).toBe(0);
  });

  it("passes an abort signal that fires when the process is killed", async () => {
    const model = new HashEmbeddingModel();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const process = await platformWith(model).runInProcess((context) => context.embed(["x"]), {
      signal: controller.signal,
    });
    expect(process.status).toBe("killed");
    expect(model.requests).toEqual([]);
  });

  it("names the fix when the platform has no embedding model or the process has no platform", async () => {
    const process = await AgentPlatform.create({ models: {} }).runInProcess((context) =>
      context.embed(["x"]),
    );
    expect(process.status).toBe("failed");
    expect(ConfigurationError.isInstance(process.failure)).toBe(true);
    expect(process.statusReason).toMatch(/No embedding model configured/);

    const { process: bare } = AgentProcess.launch();
    await expect(operationContext(bare, undefined, undefined).embed(["x"])).rejects.toThrow(
      "OperationContext.embed() needs a platform: run the agent with platform.runAgent or platform.runInProcess.",
    );
  });

  it("uses the embedding model of a role or given by name", async () => {
    const fast = new HashEmbeddingModel({ modelId: "fast" });
    const precise = new HashEmbeddingModel({ modelId: "precise", dimensions: 4 });
    const platform = AgentPlatform.create({
      models: {},
      embeddingModels: { fast, precise },
      embeddingRoles: { default: "fast", precise: "precise" },
    });
    const process = await platform.runInProcess(async (context) => [
      await context.embed(["x"]),
      await context.embed(["x"], { role: "precise" }),
      await context.embed(["x"], { model: "precise" }),
    ]);
    const [first, second, third] = process.result as number[][][];
    expect(first?.[0]).toHaveLength(8);
    expect(second?.[0]).toHaveLength(4);
    expect(third?.[0]).toHaveLength(4);
    expect(fast.requests).toHaveLength(1);
    expect(precise.requests).toHaveLength(2);
  });
});
