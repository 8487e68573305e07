import { ConfigurationError } from "../errors/configuration-error.js";
import type { ToolInjectionStrategy } from "../loop/tool-injection-strategy.js";
import { describeToolMethods } from "../tool/instance-tools.js";
import type { Tool } from "../tool/tool.js";
import { type TypeLike, type TypeOf, TypeToken } from "../tool/type-token.js";
import { DomainToolPlaceholder } from "./domain-tool-placeholder.js";
import { DomainToolPredicate } from "./domain-tool-predicate.js";
import { type DomainToolSource, DomainToolTracker } from "./domain-tool-tracker.js";
import { ToolChainingInjectionStrategy } from "./tool-chaining-injection-strategy.js";

/**
 * Exposing the `@llmTool` methods of objects that tools return (shared by
 * `PromptRunner` and the agentic tools). Each method returns a new instance.
 */
export interface ToolChaining<THIS> {
  /**
   * Declares one placeholder per `@llmTool` method of `type` from the start;
   * once a tool returns a single instance of `type` that `predicate` accepts,
   * the placeholders call that instance (the last one returned wins).
   */
  withToolChainingFrom<L extends TypeLike>(type: L, predicate?: DomainToolPredicate<TypeOf<L>>): THIS;
  /** Any returned object with `@llmTool` methods becomes tools on the next LLM call, replacing the previous object's. */
  withToolChainingFromAny(): THIS;
}

/** What one interaction adds for tool chaining: the placeholders to offer and the strategy that binds. */
export interface ToolChainingSession {
  /**
   * One placeholder per method of each registered type, then the discovered
   * tools offered so far: what a loop continuing the session (a corrective retry) starts with.
   */
  readonly tools: readonly Tool[];
  /** Binds returned artifacts (and injects discovered tools); add it to the loop's strategies. */
  readonly strategy: ToolInjectionStrategy;
}

interface RegisteredSource extends DomainToolSource {
  /** The tools of the type's methods, for their definitions (bound to a bare prototype instance). */
  readonly methods: readonly Tool[];
}

/**
 * An immutable tool-chaining configuration: registered types and whether
 * auto-discovery is on. `start()` makes the per-interaction state, so two
 * calls of one runner or agentic tool never share bindings.
 */
export class ToolChainingConfig {
  /** No chaining. */
  static readonly NONE = new ToolChainingConfig([], false);

  private constructor(
    private readonly sources: readonly RegisteredSource[],
    /** Whether any returned object with tool methods contributes its tools. */
    readonly fromAny: boolean,
  ) {}

  /** Whether nothing is configured. */
  get isEmpty(): boolean {
    return this.sources.length === 0 && !this.fromAny;
  }

  /** The registered types, in registration order. */
  get types(): readonly TypeToken[] {
    return this.sources.map((source) => source.type);
  }

  /**
   * Adds `type` (a class with `@llmTool` methods); registering it again
   * replaces its predicate. A type without tool methods is a {@link ConfigurationError}.
   */
  from<L extends TypeLike>(type: L, predicate?: DomainToolPredicate<TypeOf<L>>): ToolChainingConfig {
    const token = TypeToken.of(type) as TypeToken;
    const methods = methodsOf(type, token);
    const source: RegisteredSource = {
      type: token,
      predicate: (predicate ?? DomainToolPredicate.always()) as DomainToolPredicate<unknown>,
      methods,
    };
    const others = this.sources.filter((existing) => existing.type !== token);
    return new ToolChainingConfig([...others, source], this.fromAny);
  }

  /** This configuration with `other`'s types added (its predicates win for a type in both) and auto-discovery if either has it. */
  merge(other: ToolChainingConfig): ToolChainingConfig {
    if (other.isEmpty) return this;
    if (this.isEmpty) return other;
    const replaced = new Set(other.sources.map((source) => source.type));
    return new ToolChainingConfig(
      [...this.sources.filter((source) => !replaced.has(source.type)), ...other.sources],
      this.fromAny || other.fromAny,
    );
  }

  /** Turns auto-discovery on. */
  withAny(): ToolChainingConfig {
    return this.fromAny ? this : new ToolChainingConfig(this.sources, true);
  }

  /** The placeholders and binding strategy for one interaction. */
  start(): ToolChainingSession {
    const tracker = new DomainToolTracker(this.sources, this.fromAny);
    const placeholders = this.sources.flatMap((source) =>
      source.methods.map((method) => new DomainToolPlaceholder(method, source.type, tracker)),
    );
    const strategy = new ToolChainingInjectionStrategy(tracker);
    return {
      get tools() {
        return strategy.offered.length === 0 ? placeholders : [...placeholders, ...strategy.offered];
      },
      strategy,
    };
  }
}

function methodsOf(type: TypeLike, token: TypeToken): readonly Tool[] {
  const classType = typeof type === "function" ? type : (token as { type?: unknown }).type;
  const prototype = typeof classType === "function" ? (classType.prototype as unknown) : undefined;
  const methods =
    typeof prototype === "object" && prototype !== null
      ? describeToolMethods(Object.create(prototype) as object).map((method) => method.tool)
      : [];
  if (methods.length === 0) {
    throw new ConfigurationError(
      `Tool chaining from ${token.name}: it has no @llmTool methods. Register a class whose methods are decorated with @llmTool, or use withToolChainingFromAny().`,
    );
  }
  return methods;
}
