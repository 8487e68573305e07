import { ConfigurationError } from "../errors/configuration-error.js";
import type { OperationContext } from "../platform/operation-context.js";
import type { Tool } from "../tool/tool.js";
import { type AgenticSession, AgenticTool } from "./agentic-tool.js";
import { GlobalStateTool, StateBoundTool, type StateHolder, StateMachineMemory } from "./state-bound-tool.js";

/** The states of a machine: an array (`["DRAFT", "CONFIRMED"]`) or a TypeScript enum object. */
export type StatesInit<S> = readonly S[] | Readonly<Record<string, S>>;

/** Builds a system prompt that knows the machine's state. */
export type StateAwareSystemPromptCreator<S> = (context: OperationContext, input: string, state: S) => string;

interface StateRegistration<S> {
  readonly state: S;
  readonly tool: Tool;
  readonly transition: S | undefined;
}

/** The states and their display names (an enum's member names). */
class StateSpace<S> {
  readonly names: ReadonlyMap<S, string>;

  constructor(init: StatesInit<S>) {
    const entries: [S, string][] = Array.isArray(init)
      ? (init as readonly S[]).map((state) => [state, String(state)])
      : Object.entries(init as Readonly<Record<string, S>>)
          // A numeric enum maps values back to names too; keep only the members.
          .filter(([key]) => !/^\d+$/.test(key))
          .map(([key, state]) => [state, key]);
    if (entries.length === 0) throw new ConfigurationError("A StateMachineTool needs at least one state.");
    this.names = new Map(entries);
  }

  nameOf(state: S): string {
    return this.names.get(state) ?? String(state);
  }

  check(state: S, owner: string): S {
    if (!this.names.has(state)) {
      throw new ConfigurationError(
        `${owner}: unknown state ${String(state)}. States: ${[...this.names.values()].join(", ")}.`,
      );
    }
    return state;
  }
}

/**
 * An agentic tool whose sub-tools belong to states: all are declared to the
 * LLM at once (so prompt caches hold), each runs only in its state, and a
 * successful call of a tool with a transition moves the machine on (its
 * result names the new state). Global tools run in every state.
 *
 * @example
 * const orders = StateMachineTool.create("orderProcessor", "Process orders", OrderState)
 *   .withInitialState(OrderState.DRAFT)
 *   .inState(OrderState.DRAFT).withTool(addItem).withTool(confirm).transitionsTo(OrderState.CONFIRMED)
 *   .inState(OrderState.CONFIRMED).withTool(ship).transitionsTo(OrderState.SHIPPED)
 *   .build()
 *   .withGlobalTools(status);
 */
export class StateMachineTool<S> extends AgenticTool {
  private readonly space: StateSpace<S>;
  private initial: S | undefined;
  private registrations: readonly StateRegistration<S>[] = [];
  private stateAwarePrompt: StateAwareSystemPromptCreator<S> | undefined;

  /** A machine called `name` doing what `description` says, over `states` (an array or an enum object). */
  constructor(name: string, description: string, states: StatesInit<S>) {
    super(name, description);
    this.space = new StateSpace(states);
  }

  /** A machine called `name` doing what `description` says, over `states`. */
  static create<S extends string | number>(
    name: string,
    description: string,
    states: StatesInit<S>,
  ): StateMachineTool<S> {
    return new StateMachineTool<S>(name, description, states);
  }

  /** The state each call starts in. */
  get initialState(): S | undefined {
    return this.initial;
  }

  /** The states, in declaration order. */
  get states(): readonly S[] {
    return [...this.space.names.keys()];
  }

  /** How many tools each state has. */
  get stateToolCounts(): ReadonlyMap<S, number> {
    const counts = new Map<S, number>();
    for (const { state } of this.registrations) counts.set(state, (counts.get(state) ?? 0) + 1);
    return counts;
  }

  /** How many state-bound tools there are (global tools excluded). */
  get totalStateTools(): number {
    return this.registrations.length;
  }

  /** The state-bound tools, then the global ones. */
  override get innerTools(): readonly Tool[] {
    return [...this.registrations.map((registration) => registration.tool), ...super.innerTools];
  }

  /** A copy starting in `state`. */
  withInitialState(state: S): StateMachineTool<S> {
    const copy = this.derive();
    copy.initial = this.space.check(state, `StateMachineTool '${this.definition.name}'`);
    return copy;
  }

  /** A copy starting in `state` (resuming an order already confirmed). */
  startingIn(state: S): StateMachineTool<S> {
    return this.withInitialState(state);
  }

  /** Starts registering tools available in `state`. */
  inState(state: S): StateToolsBuilder<S> {
    return new StateToolsBuilder(this, this.space.check(state, `StateMachineTool '${this.definition.name}'`));
  }

  /** A copy with more global tools; a name already bound to a state is a {@link ConfigurationError}. */
  override withTools(...tools: Tool[]): this {
    const copy = super.withTools(...tools);
    const bound = tools.find((tool) =>
      this.registrations.some((registration) => registration.tool.definition.name === tool.definition.name),
    );
    if (bound) {
      throw new ConfigurationError(
        `StateMachineTool '${this.definition.name}': tool '${bound.definition.name}' is already bound to a state.`,
      );
    }
    return copy;
  }

  /** A copy with a tool available in every state. */
  withGlobalTool(tool: Tool): StateMachineTool<S> {
    return this.withTools(tool);
  }

  /** A copy with tools available in every state. */
  withGlobalTools(...tools: Tool[]): StateMachineTool<S> {
    return this.withTools(...tools);
  }

  /** A copy whose system prompt is built per call with the initial state. */
  withStateAwareSystemPrompt(creator: StateAwareSystemPromptCreator<S>): StateMachineTool<S> {
    const copy = this.derive({ systemPrompt: undefined });
    copy.stateAwarePrompt = creator;
    return copy;
  }

  /** A copy with `tool` available in `state` (used by {@link StateToolsBuilder}). */
  withStateTool(state: S, tool: Tool, transition?: S): StateMachineTool<S> {
    const owner = `StateMachineTool '${this.definition.name}'`;
    const name = tool.definition.name;
    if (super.innerTools.some((global) => global.definition.name === name)) {
      throw new ConfigurationError(`${owner}: tool '${name}' is already a global tool.`);
    }
    const clash = this.registrations.find((registration) => registration.tool.definition.name === name);
    if (clash) {
      throw new ConfigurationError(
        `${owner}: tool '${name}' is already registered in state ${this.space.nameOf(clash.state)}. A tool belongs to one state: register a renamed copy (tool.withName("...")) for another.`,
      );
    }
    const copy = this.derive();
    copy.registrations = [
      ...this.registrations,
      {
        state: this.space.check(state, owner),
        tool,
        transition: transition === undefined ? undefined : this.space.check(transition, owner),
      },
    ];
    return copy;
  }

  /** A copy where the last registered tool moves the machine to `state` (used by {@link StateToolsBuilder}). */
  withLastTransition(state: S): StateMachineTool<S> {
    const last = this.registrations[this.registrations.length - 1];
    if (!last) throw new ConfigurationError("transitionsTo() must follow withTool().");
    const copy = this.derive();
    copy.registrations = [
      ...this.registrations.slice(0, -1),
      { ...last, transition: this.space.check(state, `StateMachineTool '${this.definition.name}'`) },
    ];
    return copy;
  }

  override withSystemPrompt(prompt: Parameters<AgenticTool["withSystemPrompt"]>[0]): this {
    const copy = super.withSystemPrompt(prompt);
    copy.stateAwarePrompt = undefined;
    return copy;
  }

  protected get interactionKind(): string {
    return "state-machine-tool";
  }

  protected configurationProblem(): string | undefined {
    if (this.initial === undefined) return "No initial state configured for StateMachineTool";
    if (this.registrations.length === 0 && !this.hasToolsOrChaining) {
      return "No tools registered for StateMachineTool";
    }
    return undefined;
  }

  protected startSession(_context: OperationContext, _input: string): AgenticSession {
    const initial = this.initial as S;
    const space = this.space;
    const holder: StateHolder<S> = {
      current: initial,
      nameOf: (state) => space.nameOf(state),
      isState: (value): value is S => space.names.has(value as S),
    };
    return {
      tools: [
        ...this.registrations.map(
          ({ state, tool, transition }) => new StateBoundTool(tool, state, transition, holder),
        ),
        ...super.innerTools.map((tool) => new GlobalStateTool(tool)),
      ],
      defaultSystemPrompt: defaultStateMachinePrompt(space.nameOf(initial), this.definition.description),
      injectionStrategies: [new StateMachineMemory(holder)],
    };
  }

  protected override systemPromptFor(
    context: OperationContext,
    input: string,
    session: AgenticSession,
  ): string {
    if (this.stateAwarePrompt) return this.stateAwarePrompt(context, input, this.initial as S);
    return super.systemPromptFor(context, input, session);
  }
}

/** The reference's system prompt for a state machine, fixed at the initial state so prompt caches hold. */
function defaultStateMachinePrompt(state: string, description: string): string {
  return [
    "You are an intelligent agent that can use tools to complete tasks.",
    "",
    `Current state: ${state}`,
    "",
    `Task: ${description}`,
    "",
    "Use the available tools to complete the task. Some tools are only available",
    "in certain states. If a tool indicates it's not available in the current state,",
    "you may need to use other tools first to transition to the appropriate state.",
  ].join("\n");
}

/** Registers tools for one state: `inState(S).withTool(t).transitionsTo(T).withTool(u).inState(R)….build()`. */
export class StateToolsBuilder<S> {
  constructor(
    private readonly machine: StateMachineTool<S>,
    private readonly state: S,
    private readonly afterTool = false,
  ) {}

  /** Adds `tool`, available in this state. */
  withTool(tool: Tool): StateToolsBuilder<S> {
    return new StateToolsBuilder(this.machine.withStateTool(this.state, tool), this.state, true);
  }

  /** Makes the tool just added move the machine to `state` when its result is not an error. */
  transitionsTo(state: S): StateToolsBuilder<S> {
    if (!this.afterTool) throw new ConfigurationError("transitionsTo() must follow withTool().");
    return new StateToolsBuilder(this.machine.withLastTransition(state), this.state);
  }

  /** Continues with another state's tools. */
  inState(state: S): StateToolsBuilder<S> {
    return this.machine.inState(state);
  }

  /** The state machine tool with the tools registered so far. */
  build(): StateMachineTool<S> {
    return this.machine;
  }
}
