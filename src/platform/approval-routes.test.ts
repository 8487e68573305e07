// One gate, every route (issue 34): each route that can reach an approval-gated
// tool, crossed with each way a person (or a provider) can answer, inside an
// agent process driven by the scripted model. Side effects are counted: an
// approved call runs exactly once with its approved input, a denied or
// unanswered call never runs.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deskAgent } from "../../test/support/desk-agent.js";
import { PlaybookTool } from "../agentic/playbook-tool.js";
import { SimpleAgenticTool } from "../agentic/simple-agentic-tool.js";
import { InvalidResponseError } from "../errors/invalid-response-error.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { unfoldingTools } from "../progressive/unfolding-tools.js";
import type { PromptRunner } from "../prompt/prompt-runner.js";
import { Subagent } from "../subagent/subagent.js";
import { ScriptedModel } from "../testing/scripted-model.js";

type ScriptedStepInit = NonNullable<ConstructorParameters<typeof ScriptedModel>[0]>[number];

import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import type { ToolApproval } from "../tool/tool-approval.js";
import { domainType } from "../tool/type-token.js";
import type { AgentProcess } from "./agent-process.js";
import { defineAgent } from "./define-agent.js";

const PayInput = z.object({
  to: z.string().max(20),
  cents: z.number().int().positive().max(5000).default(900),
});
type Pay = z.output<typeof PayInput>;

/** Approval only above 100 cents (so a default of 900 must ask); a `to` of "boom" makes the message throw. */
const policy: ToolApproval<Pay> = {
  when: (input) => input.cents > 100,
  message: (input) => {
    if (input.to === "boom") throw new Error("hostile input");
    return `Pay ${input.cents} cents to ${input.to}?`;
  },
};

/** The `pay` tool as a typed tool, counting what it ran with. */
function payTool(runs: Pay[]): Tool {
  return Tool.requireApproval(
    Tool.fromFunction("pay", "Pays someone", PayInput, z.string(), (input) => {
      runs.push(input);
      return `paid ${input.cents} to ${input.to}`;
    }),
    policy,
  );
}

/** A route: the tools the model is offered, and the model steps that reach `pay` with `args`. */
interface Route {
  readonly name: string;
  tools(runs: Pay[]): Tool[];
  /** The steps up to and including the call that reaches `pay` (`id` is the provider's id of that call). */
  reach(args: object, id?: string): ScriptedStepInit[];
  /** The steps after `pay` ran or was answered (closing inner loops), before the outer answer. */
  after?: ScriptedStepInit[];
  /** Configures the action's prompt runner beyond the tools (tool chaining). @default none */
  configure?(runner: PromptRunner, runs: Pay[]): PromptRunner;
  /** The steps that reach `pay` again later in the same loop. @default reach */
  reachAgain?(args: object, id?: string): ScriptedStepInit[];
}

const Wallet = { name: "wallet", description: "Wallet tools" };

function walletClass(runs: Pay[]) {
  @unfoldingTools(Wallet)
  class WalletTools {
    @llmTool({ description: "Pays someone", input: PayInput, requireApproval: policy })
    pay(input: Pay) {
      runs.push(input);
      return `paid ${input.cents} to ${input.to}`;
    }
  }
  return new WalletTools();
}

const other = Tool.create("balance", "Shows the balance", () => Tool.Result.text("100"));

const Claim = domainType("Claim", z.object({ text: z.string() }));
const Settled = domainType("Settled", z.object({ text: z.string() }));

/** A child agent whose one action pays through its own tool loop (reached as a subagent). */
function payerAgent(runs: Pay[]) {
  return defineAgent({
    name: "Payer",
    description: "Pays claims",
    actions: [
      {
        name: "settle",
        input: Claim,
        output: Settled,
        achievesGoal: { description: "Settled" },
        run: async (claim, context) => ({
          text: await context
            .ai()
            .withTools([payTool(runs)])
            .generateText(claim.text),
        }),
      },
    ],
  });
}

/** A purse whose `pay` needs no approval; `GuardedPurse` overrides it with the policy (chained from `Purse`). */
function makePurses(runs: Pay[]) {
  class Purse {
    @llmTool({ description: "Pays someone", input: PayInput })
    pay(input: Pay) {
      runs.push({ ...input, to: `unguarded ${input.to}` });
      return "paid without asking";
    }
  }
  class GuardedPurse extends Purse {
    @llmTool({ description: "Pays someone", input: PayInput, requireApproval: policy })
    override pay(input: Pay) {
      runs.push(input);
      return `paid ${input.cents} to ${input.to}`;
    }
  }
  return { Purse, GuardedPurse };
}

const pursesOfRun = new WeakMap<Pay[], ReturnType<typeof makePurses>>();

/** The purse classes of one run (the same classes for its tools and its chaining). */
function purses(runs: Pay[]) {
  let classes = pursesOfRun.get(runs);
  if (classes === undefined) {
    classes = makePurses(runs);
    pursesOfRun.set(runs, classes);
  }
  return classes;
}

/** Retrieves `purse` (bound by tool chaining). */
function getPurse(purse: object): Tool {
  return Tool.create("get_purse", "Retrieves the purse", () => Tool.Result.withArtifact("the purse", purse));
}

const routes: Route[] = [
  {
    name: "a direct loop call",
    tools: (runs) => [payTool(runs)],
    reach: (args, id) => [ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id })],
  },
  {
    name: "a facade shortcut (UnfoldingTool.of)",
    tools: (runs) => [UnfoldingTool.of("wallet", "Wallet", [payTool(runs), other])],
    reach: (args, id) => [ScriptedModel.toolCall("wallet", { pay: args }, id === undefined ? {} : { id })],
  },
  {
    name: "a facade shortcut (byCategory)",
    tools: (runs) => [
      UnfoldingTool.byCategory("wallet", "Wallet", { money: [payTool(runs)], info: [other] }),
    ],
    reach: (args, id) => [
      ScriptedModel.toolCall("wallet", { category: "money", pay: args }, id === undefined ? {} : { id }),
    ],
    // Unfolded into the "money" tools: pay is now offered by name.
    reachAgain: (args, id) => [ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id })],
  },
  {
    name: "a facade shortcut (selectable)",
    tools: (runs) => {
      const pay = payTool(runs);
      return [
        UnfoldingTool.selectable("wallet", "Wallet", [pay, other], z.object({ level: z.string() }), () => [
          pay,
        ]),
      ];
    },
    reach: (args, id) => [
      ScriptedModel.toolCall("wallet", { level: "basic", pay: args }, id === undefined ? {} : { id }),
    ],
    reachAgain: (args, id) => [ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id })],
  },
  {
    name: "a facade shortcut (fromInstance, @llmTool({ requireApproval }))",
    tools: (runs) => [UnfoldingTool.fromInstance(walletClass(runs))],
    reach: (args, id) => [ScriptedModel.toolCall("wallet", { pay: args }, id === undefined ? {} : { id })],
  },
  {
    name: "a nested facade",
    tools: (runs) => [
      UnfoldingTool.of("bank", "Bank", [UnfoldingTool.of("wallet", "Wallet", [payTool(runs)])]),
    ],
    reach: (args, id) => [
      ScriptedModel.toolCall("bank", { wallet: { pay: args } }, id === undefined ? {} : { id }),
    ],
  },
  {
    name: "the guide tool called again after unfolding",
    tools: (runs) => [UnfoldingTool.of("wallet", "Wallet", [payTool(runs), other])],
    reach: (args, id) => [
      ScriptedModel.toolCall("wallet", {}),
      ScriptedModel.toolCall("wallet", { pay: args }, id === undefined ? {} : { id }),
    ],
  },
  {
    name: "a tool inside a SimpleAgenticTool",
    tools: (runs) => [SimpleAgenticTool.create("treasurer", "Pays people").withTools(payTool(runs))],
    reach: (args, id) => [
      ScriptedModel.toolCall("treasurer", { task: "pay" }),
      ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id }),
    ],
    after: [ScriptedModel.text("treasurer done")],
  },
  {
    name: "a tool inside a PlaybookTool",
    tools: (runs) => [PlaybookTool.create("playbook", "Pays people").withTools(other, payTool(runs))],
    reach: (args, id) => [
      ScriptedModel.toolCall("playbook", { task: "pay" }),
      ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id }),
    ],
    after: [ScriptedModel.text("playbook done")],
  },
  {
    name: "a subagent (Subagent.ofInstance(...).consuming(...))",
    tools: (runs) => [Subagent.ofInstance(payerAgent(runs)).consuming(Claim)],
    reach: (args, id) => [
      ScriptedModel.toolCall("Payer", { text: "pay" }),
      ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id }),
    ],
    after: [ScriptedModel.text("child done")],
  },
  {
    name: "a chained method (withToolChainingFrom, the type's own approval)",
    tools: (runs) => [getPurse(new (purses(runs).GuardedPurse)())],
    configure: (runner, runs) => runner.withToolChainingFrom(purses(runs).GuardedPurse),
    reach: (args, id) => [
      ScriptedModel.toolCall("get_purse", {}),
      ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id }),
    ],
    reachAgain: (args, id) => [ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id })],
  },
  {
    name: "a chained method (a subclass's override with approval, chained from the base type)",
    tools: (runs) => [getPurse(new (purses(runs).GuardedPurse)())],
    configure: (runner, runs) => runner.withToolChainingFrom(purses(runs).Purse),
    reach: (args, id) => [
      ScriptedModel.toolCall("get_purse", {}),
      ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id }),
    ],
    reachAgain: (args, id) => [ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id })],
  },
  {
    name: "a chained method (withToolChainingFromAny)",
    tools: (runs) => [getPurse(new (purses(runs).GuardedPurse)())],
    configure: (runner) => runner.withToolChainingFromAny(),
    reach: (args, id) => [
      ScriptedModel.toolCall("get_purse", {}),
      ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id }),
    ],
    reachAgain: (args, id) => [ScriptedModel.toolCall("pay", args, id === undefined ? {} : { id })],
  },
];

/** Runs `route` with `steps` (ending with the outer answer); returns what it takes to answer and count. */
async function start(route: Route, steps: ScriptedStepInit[]) {
  const runs: Pay[] = [];
  const desk = deskAgent({
    model: new ScriptedModel(steps),
    tools: route.tools(runs),
    configure: (runner) => route.configure?.(runner, runs) ?? runner,
    name: "Cashier",
    ticket: "pay",
  });
  return { runs, model: desk.model, platform: desk.platform, process: await desk.start() };
}

const done = ScriptedModel.text("done");

function openApproval(process: AgentProcess) {
  const request = process.awaiting[0];
  if (request?.kind !== "approval") throw new Error(`not waiting for an approval: ${process.status}`);
  return request;
}

describe.each(routes)("approval through $name", (route) => {
  const finish = (route.after ?? []).concat(done);

  it("approve: the tool runs once, with the validated input", async () => {
    const { runs, platform, process } = await start(route, [
      ...route.reach({ to: "ann", cents: 300 }),
      ...finish,
    ]);
    expect(process.status).toBe("waiting");
    expect(runs).toEqual([]);
    const request = openApproval(process);
    expect(request).toMatchObject({ toolName: "pay", message: "Pay 300 cents to ann?" });
    const after = await platform.respond(process.id, request.id, { approved: true });
    expect(after.status).toBe("completed");
    expect(runs).toEqual([{ to: "ann", cents: 300 }]);
  });

  it("deny: the tool never runs, and the model is told", async () => {
    const { runs, platform, process, model } = await start(route, [
      ...route.reach({ to: "ann", cents: 300 }),
      ...finish,
    ]);
    const after = await platform.respond(process.id, openApproval(process).id, {
      approved: false,
      reason: "too much",
    });
    expect(after.status).toBe("completed");
    expect(runs).toEqual([]);
    expect(JSON.stringify(model.requests.map((request) => request.prompt))).toContain(
      "The user denied this call: too much",
    );
  });

  it("edit, valid: the tool runs once with exactly the edited input", async () => {
    const { runs, platform, process } = await start(route, [
      ...route.reach({ to: "ann", cents: 300 }),
      ...finish,
    ]);
    const after = await platform.respond(process.id, openApproval(process).id, {
      approved: true,
      input: { to: "bob", cents: 250 },
    });
    expect(after.status).toBe("completed");
    expect(runs).toEqual([{ to: "bob", cents: 250 }]);
  });

  it("edit, invalid: InvalidResponseError naming the field, the process keeps waiting, nothing ran", async () => {
    const { runs, platform, process } = await start(route, [
      ...route.reach({ to: "ann", cents: 300 }),
      ...finish,
    ]);
    const request = openApproval(process);
    const failure = await platform
      .respond(process.id, request.id, { approved: true, input: { to: "bob", cents: 999_999 } })
      .catch((error: unknown) => error);
    expect(InvalidResponseError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/cents: must be <= 5000/);
    expect(process.status).toBe("waiting");
    expect(process.awaiting.map((open) => open.id)).toEqual([request.id]);
    expect(runs).toEqual([]);
    const after = await platform.respond(process.id, request.id, { approved: true });
    expect(after.status).toBe("completed");
    expect(runs).toEqual([{ to: "ann", cents: 300 }]);
  });

  it("`when` on a defaulted field: an omitted amount that defaults to 900 still asks", async () => {
    const { runs, platform, process } = await start(route, [...route.reach({ to: "ann" }), ...finish]);
    expect(process.status).toBe("waiting");
    expect(openApproval(process).message).toBe("Pay 900 cents to ann?");
    expect(runs).toEqual([]);
    await platform.respond(process.id, openApproval(process).id, { approved: true });
    expect(runs).toEqual([{ to: "ann", cents: 900 }]);
  });

  it("`when` on a coerced field: a stringified amount is seen as the number the tool gets", async () => {
    const { runs, platform, process } = await start(route, [
      ...route.reach({ to: "ann", cents: "4000" }),
      ...finish,
    ]);
    expect(process.status).toBe("waiting");
    expect(openApproval(process).message).toBe("Pay 4000 cents to ann?");
    await platform.respond(process.id, openApproval(process).id, { approved: true });
    expect(runs).toEqual([{ to: "ann", cents: 4000 }]);
  });

  it("a throwing `message`: the default message, and the process waits instead of failing", async () => {
    const { runs, process } = await start(route, [...route.reach({ to: "boom", cents: 300 }), ...finish]);
    expect(process.status).toBe("waiting");
    expect(openApproval(process).message).toBe("Allow pay to run with these arguments?");
    expect(runs).toEqual([]);
  });

  it("below the policy's threshold: runs at once, no request", async () => {
    const { runs, process } = await start(route, [...route.reach({ to: "ann", cents: 50 }), ...finish]);
    expect(process.status).toBe("completed");
    expect(runs).toEqual([{ to: "ann", cents: 50 }]);
  });

  it.each([
    ["a repeated provider id", "call_0"],
    ["an empty id", ""],
  ])("%s: one approval is never reused for a later call", async (_label, id) => {
    const { runs, platform, process } = await start(route, [
      ...route.reach({ to: "ann", cents: 300 }, id),
      ...(route.after ?? []),
      ...(route.reachAgain ?? route.reach)({ to: "eve", cents: 4999 }, id),
      ...finish,
    ]);
    const first = openApproval(process);
    const second = await platform.respond(process.id, first.id, { approved: true });
    expect(runs).toEqual([{ to: "ann", cents: 300 }]);
    expect(second.status).toBe("waiting");
    const again = openApproval(second);
    expect(again.id).not.toBe(first.id);
    expect(again.message).toBe("Pay 4999 cents to eve?");
    const after = await platform.respond(process.id, again.id, { approved: false });
    expect(after.status).toBe("completed");
    expect(runs).toEqual([{ to: "ann", cents: 300 }]);
  });
});
