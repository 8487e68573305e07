import { z } from "zod";
import { AgentPlatform } from "../../src/platform/agent-platform.js";
import type { AgentProcess } from "../../src/platform/agent-process.js";
import { defineAgent } from "../../src/platform/define-agent.js";
import type { RunProcessOptions } from "../../src/platform/process-launcher.js";
import type { PromptRunner } from "../../src/prompt/prompt-runner.js";
import type { ScriptedModel } from "../../src/testing/scripted-model.js";
import type { Tool } from "../../src/tool/tool.js";
import { domainType } from "../../src/tool/type-token.js";

/** The desk's input: a support ticket. */
export const Ticket = domainType("Ticket", z.object({ text: z.string() }));
/** The desk's output: the model's final text. */
export const Reply = domainType("Reply", z.object({ text: z.string() }));

/** What {@link deskAgent} sets up. */
export interface DeskAgentOptions {
  /** The model of the platform (the only one, `main`). */
  readonly model: ScriptedModel;
  /** The tools the action's prompt runner offers. @default none */
  readonly tools?: readonly Tool[];
  /** Configures the runner beyond the tools (tool chaining, skills, ...). @default none */
  readonly configure?: (runner: PromptRunner) => PromptRunner;
  /** The agent's name. @default "Desk" */
  readonly name?: string;
  /** The ticket's text (the user message). @default "Refund order 7" */
  readonly ticket?: string;
}

/** A desk: its platform and agent, and how to start a run. */
export interface DeskAgent {
  readonly model: ScriptedModel;
  readonly platform: AgentPlatform;
  readonly agent: ReturnType<typeof deskDefinition>;
  /** Runs the agent on the ticket: resolves when it ends or waits for a person. */
  start(options?: Pick<RunProcessOptions, "processOptions">): Promise<AgentProcess>;
}

/**
 * The setup the approval, resume and code-mode tests share: a platform on a
 * scripted model and one agent whose one action (`answer`, Ticket → Reply)
 * asks the model with the given tools, so a tool needing approval makes the
 * process wait and `platform.respond` resumes it.
 */
export function deskAgent(options: DeskAgentOptions): DeskAgent {
  const { model } = options;
  const platform = AgentPlatform.create({ models: { main: model } });
  const agent = deskDefinition(options);
  const ticket = options.ticket ?? "Refund order 7";
  return {
    model,
    platform,
    agent,
    start: (runOptions) => platform.runAgent(agent, Ticket.create({ text: ticket }), runOptions),
  };
}

/** The desk agent alone (for a platform of the test's own, or a run from a checkpoint). */
export function deskDefinition(options: Omit<DeskAgentOptions, "model" | "ticket"> = {}) {
  const { tools = [], configure = (runner: PromptRunner) => runner } = options;
  return defineAgent({
    name: options.name ?? "Desk",
    description: "Answers tickets",
    actions: [
      {
        name: "answer",
        input: Ticket,
        output: Reply,
        achievesGoal: { description: "Answered" },
        run: async (ticket, context) => ({
          text: await configure(context.ai().withTools([...tools])).generateText(ticket.text),
        }),
      },
    ],
  });
}
