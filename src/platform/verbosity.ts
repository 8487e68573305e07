/** The flags of a {@link Verbosity}. */
export interface VerbosityInit {
  /** Show the prompts sent to the LLM. @default false */
  readonly showPrompts?: boolean;
  /** Show the LLM's responses. @default false */
  readonly showLlmResponses?: boolean;
  /** Show everything the process does. @default false */
  readonly debug?: boolean;
  /** Show each plan the planner makes. @default false */
  readonly showPlanning?: boolean;
}

/**
 * How much an agent process reports about itself (immutable; every `with*`
 * returns a copy). Child processes started by a `Subagent` inherit it.
 *
 * @example
 * ProcessOptions.DEFAULT.withVerbosity(new Verbosity().withShowPrompts(true));
 */
export class Verbosity {
  /** Quiet: every flag off. */
  static readonly DEFAULT: Verbosity = new Verbosity();

  /** Show the prompts sent to the LLM. @default false */
  readonly showPrompts: boolean;
  /** Show the LLM's responses. @default false */
  readonly showLlmResponses: boolean;
  /** Show everything the process does. @default false */
  readonly debug: boolean;
  /** Show each plan the planner makes. @default false */
  readonly showPlanning: boolean;

  constructor(init: VerbosityInit = {}) {
    this.showPrompts = init.showPrompts ?? false;
    this.showLlmResponses = init.showLlmResponses ?? false;
    this.debug = init.debug ?? false;
    this.showPlanning = init.showPlanning ?? false;
    Object.freeze(this);
  }

  /** A copy with `showPrompts` set. */
  withShowPrompts(showPrompts = true): Verbosity {
    return new Verbosity({ ...this, showPrompts });
  }

  /** A copy with `showLlmResponses` set. */
  withShowLlmResponses(showLlmResponses = true): Verbosity {
    return new Verbosity({ ...this, showLlmResponses });
  }

  /** A copy with `debug` set. */
  withDebug(debug = true): Verbosity {
    return new Verbosity({ ...this, debug });
  }

  /** A copy with `showPlanning` set. */
  withShowPlanning(showPlanning = true): Verbosity {
    return new Verbosity({ ...this, showPlanning });
  }

  /** True when any flag is on. */
  get showsAnything(): boolean {
    return this.showPrompts || this.showLlmResponses || this.debug || this.showPlanning;
  }
}
