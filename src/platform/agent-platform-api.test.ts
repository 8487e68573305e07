import { describe, expect, it } from "vitest";
import { AgentPlatform } from "./agent-platform.js";
import type { AgentPlatformApi } from "./agent-platform-api.js";
import { defineAgent } from "./define-agent.js";

// `process.platform` is declared as AgentPlatformApi (below the process), the
// platform itself is an AgentPlatform: each must pass for the other, so code
// written against either keeps compiling (`npm run typecheck` checks the
// assignments below; the expectations check they hold the same object).
function asClass(platform: AgentPlatformApi | undefined): AgentPlatform | undefined {
  return platform;
}

function asApi(platform: AgentPlatform): AgentPlatformApi {
  return platform;
}

describe("AgentPlatformApi", () => {
  it("is what a process's platform is: the AgentPlatform that ran it, usable as one", async () => {
    const platform = AgentPlatform.create({ models: {} });
    const process = await platform.runInProcess(() => "done");
    expect(process.status).toBe("completed");
    expect(asClass(process.platform)).toBe(platform);
    expect(asApi(platform)).toBe(platform);
  });

  it("reaches the platform's deployed agents from inside a process", async () => {
    const platform = AgentPlatform.create({ models: {}, name: "outer" });
    const greeter = platform.deploy(
      defineAgent({
        name: "greeter",
        description: "Greets",
        actions: [
          { name: "greet", output: String, achievesGoal: { description: "Greeted" }, run: () => "hi" },
        ],
      }),
    );
    const process = await platform.runInProcess((context) => context.process.platform?.agent("greeter"));
    expect(process.result).toBe(greeter);
    expect(process.platform?.name).toBe("outer");
    expect(process.platform?.agents).toEqual([greeter]);
  });
});
