import { describe, expect, it } from "vitest";
import { z } from "zod";
import { installRecordingTracer } from "../../test/support/recording-tracer.js";
import { domainType } from "../tool/type-token.js";
import { AgentPlatform } from "./agent-platform.js";
import { defineAgent } from "./define-agent.js";
import { WaitFor } from "./wait-for.js";

const spans = installRecordingTracer();
const Question = domainType("Question", z.object({ text: z.string() }));
const Answer = domainType("Answer", z.object({ ok: z.boolean() }));

describe("recordWaitSpan", () => {
  it("records an answered wait as an embabel.wait span naming the request, respondent and verdict", async () => {
    const agent = defineAgent({
      name: "Asker",
      description: "Asks",
      actions: [
        {
          name: "ask",
          input: Question,
          output: Answer,
          achievesGoal: { description: "Asked" },
          run: async (question) => ({ ok: (await WaitFor.confirmation(question, "Go?")).approved }),
        },
      ],
    });
    const platform = AgentPlatform.create({ models: {} });
    const waiting = await platform.runAgent(agent, Question.create({ text: "?" }));
    spans.length = 0;
    await platform.respond(waiting.id, "r1", { approved: false, reason: "no" }, { respondent: "ops" });
    expect(spans.find((span) => span.name === "embabel.wait confirmation")).toMatchObject({
      ended: true,
      attributes: {
        "embabel.process.id": waiting.id,
        "embabel.wait.request_id": "r1",
        "embabel.wait.respondent": "ops",
        "embabel.wait.approved": false,
      },
    });
  });
});
