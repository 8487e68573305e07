import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { Blackboard } from "./blackboard.js";
import { Budget } from "./budget.js";
import { ListOutputChannel, OutputChannel } from "./output-channel.js";
import { ProcessOptions } from "./process-options.js";
import { Verbosity } from "./verbosity.js";

describe("ProcessOptions", () => {
  it("defaults to no context, quiet verbosity, the default budget and no listeners", () => {
    const options = ProcessOptions.DEFAULT;
    expect(options.contextId).toBeUndefined();
    expect(options.toolCallContext).toBe(ToolCallContext.EMPTY);
    expect(options.verbosity).toBe(Verbosity.DEFAULT);
    expect(options.budget).toEqual({ cost: 2.0, actions: 50, tokens: 1_000_000 });
    expect(options.listeners).toEqual([]);
    expect(options.outputChannel).toBe(OutputChannel.DEV_NULL);
    expect(options.blackboard).toBeUndefined();
  });

  it("takes a tool-call context from a record, replacing the previous one", () => {
    const options = ProcessOptions.DEFAULT.withToolCallContext({ tenantId: "acme" }).withToolCallContext({
      user: "u1",
    });
    expect(options.toolCallContext.toRecord()).toEqual({ user: "u1" });
  });

  it("returns copies and leaves the original unchanged", () => {
    const base = ProcessOptions.DEFAULT;
    const verbose = base.withVerbosity(new Verbosity().withShowPrompts(true)).withContextId("chat-1");
    expect(base.verbosity.showPrompts).toBe(false);
    expect(verbose.verbosity.showPrompts).toBe(true);
    expect(verbose.contextId).toBe("chat-1");
    expect(Object.isFrozen(verbose)).toBe(true);
  });

  it("changes only the budget limits given", () => {
    const options = ProcessOptions.DEFAULT.withBudget({ actions: 5 }).withBudget({ tokens: 100 });
    expect(options.budget).toEqual({ cost: 2.0, actions: 5, tokens: 100 });
  });

  it("adds listeners in order, or replaces them", () => {
    const first = () => {};
    const second = () => {};
    const options = ProcessOptions.DEFAULT.withListener(first).withListener(second);
    expect(options.listeners).toEqual([first, second]);
    expect(options.withListeners([second]).listeners).toEqual([second]);
  });

  it("carries an output channel and a starting blackboard", () => {
    const channel = new ListOutputChannel();
    const blackboard = new Blackboard();
    const options = new ProcessOptions({ outputChannel: channel, blackboard });
    expect(options.outputChannel).toBe(channel);
    expect(options.withBlackboard(undefined).blackboard).toBeUndefined();
    expect(options.blackboard).toBe(blackboard);
  });
});

describe("Budget", () => {
  it("has the reference's defaults", () => {
    expect(Budget.DEFAULT).toEqual({ cost: 2.0, actions: 50, tokens: 1_000_000 });
  });

  it("rejects negative or non-numeric limits", () => {
    expect(() => Budget.of({ actions: -1 })).toThrow(ConfigurationError);
    expect(() => Budget.of({ cost: Number.NaN })).toThrow(/Budget cost must be a non-negative number/);
  });
});

describe("Verbosity", () => {
  it("is quiet by default and sets each flag by copy", () => {
    const quiet = new Verbosity();
    expect(quiet.showsAnything).toBe(false);
    const loud = quiet.withShowPrompts().withShowLlmResponses().withDebug().withShowPlanning();
    expect(loud).toMatchObject({
      showPrompts: true,
      showLlmResponses: true,
      debug: true,
      showPlanning: true,
    });
    expect(quiet.showPrompts).toBe(false);
    expect(loud.withShowPrompts(false).showPrompts).toBe(false);
  });
});
