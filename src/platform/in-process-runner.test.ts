import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Agent } from "./agent.js";
import { AgentPlatform } from "./agent-platform.js";
import { AgentProcess } from "./agent-process.js";
import { defineAgent } from "./define-agent.js";
import { InProcessRunner } from "./in-process-runner.js";
import type { OperationContext } from "./operation-context.js";
import type { ProcessCheckpoint } from "./process-checkpoint.js";

class Count {
  constructor(readonly value: number) {}
}
class Doubled {
  constructor(readonly value: number) {}
}
class Done {
  constructor(readonly value: number) {}
}

/** Count → Doubled → Done; `ran` records each action run, `gate` can hold the second action. */
function counter(ran: string[], gate?: Promise<void>): Agent {
  return defineAgent({
    name: "Counter",
    description: "Doubles, then adds one",
    actions: [
      {
        name: "double",
        input: Count,
        output: Doubled,
        run: (count: Count) => {
          ran.push("double");
          return new Doubled(count.value * 2);
        },
      },
      {
        name: "finish",
        input: Doubled,
        output: Done,
        achievesGoal: { description: "Done" },
        run: async (doubled: Doubled, context: OperationContext) => {
          ran.push("finish");
          await Promise.race([gate, aborted(context.signal)]);
          return new Done(doubled.value + 1);
        },
      },
    ],
  });
}

const aborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

const platformWith = (agent: Agent): AgentPlatform => {
  const platform = AgentPlatform.create({ models: {} });
  platform.deploy(agent);
  return platform;
};

describe("InProcessRunner (the default runner)", () => {
  it("is the platform's runner unless another is given", () => {
    expect(AgentPlatform.create({ models: {} }).runner).toBeInstanceOf(InProcessRunner);
  });

  it("startAgent gives the process id at once; result() and platform.process(id) give the process", async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const platform = platformWith(counter([], gate));
    const handle = await platform.startAgent("Counter", new Count(20));
    const running = await platform.process(handle.id);
    expect(running?.id).toBe(handle.id);
    expect(running?.status).toBe("running");
    open();
    const finished = await handle.result();
    expect(finished.status).toBe("completed");
    expect(finished.result).toEqual(new Done(41));
    expect(await platform.process(handle.id)).toBe(finished);
    expect(await platform.process("no-such-id")).toBeUndefined();
  });

  it("kills a started process through its handle", async () => {
    const platform = platformWith(counter([], new Promise(() => {})));
    const handle = await platform.startAgent("Counter", new Count(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await handle.kill("stop now");
    const finished = await handle.result();
    expect(finished.status).toBe("killed");
    expect(finished.statusReason).toBe("stop now");
  });

  it("rejects an agent name that is not deployed, listing the deployed agents", async () => {
    const platform = platformWith(counter([]));
    await expect(platform.startAgent("Nobody", 1)).rejects.toThrow(ConfigurationError);
    await expect(platform.runAgent("Nobody", 1)).rejects.toThrow(/Deployed agents: \[Counter\]/);
  });

  it("rejects startAgent with the launch's own error when the process cannot even be created", async () => {
    const platform = platformWith(counter([]));
    const notASignal = { aborted: false } as unknown as AbortSignal;
    await expect(platform.startAgent("Counter", new Count(1), { signal: notASignal })).rejects.toThrow(
      /addEventListener/,
    );
    await expect(platform.runAgent("Counter", new Count(1), { signal: notASignal })).rejects.toThrow(
      /addEventListener/,
    );
  });

  it("forgets the oldest finished process past keepFinished", async () => {
    const platform = AgentPlatform.create({ models: {}, runner: new InProcessRunner({ keepFinished: 1 }) });
    platform.deploy(counter([]));
    const first = await platform.runAgent("Counter", new Count(1));
    const second = await platform.runAgent("Counter", new Count(2));
    expect(await platform.process(first.id)).toBeUndefined();
    expect(await platform.process(second.id)).toBe(second);
  });
});

describe("process checkpoints", () => {
  it("afterAction sees each action's state; a checkpoint taken there resumes without re-running it", async () => {
    const ran: string[] = [];
    const platform = platformWith(counter(ran));
    let saved: ProcessCheckpoint | undefined;
    const first = await platform.runAgent("Counter", new Count(5), {
      afterAction: (process) => {
        saved ??= process.checkpoint();
        if (process.history.length === 1) process.kill("worker died");
      },
    });
    expect(first.status).toBe("killed");
    expect(ran).toEqual(["double"]);
    const checkpoint = saved as ProcessCheckpoint;
    expect(checkpoint.history.map((entry) => entry.actionName)).toEqual(["double"]);
    expect(checkpoint.blackboard.objects).toEqual([new Count(5), new Doubled(10)]);

    const resumed = await platform.runAgent("Counter", undefined, { checkpoint });
    expect(ran).toEqual(["double", "finish"]);
    expect(resumed.id).toBe(first.id);
    expect(resumed.status).toBe("completed");
    expect(resumed.result).toEqual(new Done(11));
    expect(resumed.history.map((entry) => entry.actionName)).toEqual(["double", "finish"]);
    expect(resumed.startedAt).toEqual(first.startedAt);
    expect(resumed.blackboard.get("it")).toEqual(new Count(5));
  });

  it("a throwing afterAction ends the process failed with its error", async () => {
    const platform = platformWith(counter([]));
    const process = await platform.runAgent("Counter", new Count(1), {
      afterAction: () => {
        throw new Error("Cannot checkpoint a blackboard object of type 'Socket'");
      },
    });
    expect(process.status).toBe("failed");
    expect(process.statusReason).toBe("Cannot checkpoint a blackboard object of type 'Socket'");
    expect(process.history).toHaveLength(1);
  });

  it("resumed budgets count what was spent before the checkpoint", async () => {
    const ran: string[] = [];
    const platform = platformWith(counter(ran));
    let saved: ProcessCheckpoint | undefined;
    await platform.runAgent("Counter", new Count(1), {
      afterAction: (process) => {
        saved = process.checkpoint();
        process.kill();
      },
    });
    const { ProcessOptions } = await import("./process-options.js");
    const resumed = await platform.runAgent("Counter", undefined, {
      checkpoint: saved as ProcessCheckpoint,
      processOptions: ProcessOptions.DEFAULT.withBudget({ actions: 1 }),
    });
    expect(resumed.status).toBe("terminated");
    expect(resumed.statusReason).toMatch(/actions/i);
    expect(ran).toEqual(["double"]);
  });

  it("fromCheckpoint shows a finished process: status, result, blackboard, history, usage", async () => {
    const platform = platformWith(counter([]));
    const finished = await platform.runAgent("Counter", new Count(3));
    const hidden = finished.blackboard.objects[0];
    finished.blackboard.hide(hidden).setCondition("reviewed", true).bindProtected("kept", "yes");
    const copy = AgentProcess.fromCheckpoint(finished.checkpoint());
    expect(copy.id).toBe(finished.id);
    expect(copy.status).toBe("completed");
    expect(copy.result).toEqual(new Done(7));
    expect(copy.history).toEqual(finished.history);
    expect(copy.usage).toEqual(finished.usage);
    expect(copy.llmInvocations).toBe(finished.llmInvocations);
    expect(copy.embeddingInvocations).toBe(finished.embeddingInvocations);
    expect(copy.modelsUsed).toEqual(finished.modelsUsed);
    expect(copy.toolStats).toEqual(finished.toolStats);
    expect(copy.endedAt).toEqual(finished.endedAt);
    expect(copy.blackboard.objects).toEqual(finished.blackboard.objects);
    expect(copy.blackboard.has(Count)).toBe(false);
    expect(copy.blackboard.getCondition("reviewed")).toBe(true);
    expect(copy.blackboard.clear().get("kept")).toBe("yes");
  });
});
