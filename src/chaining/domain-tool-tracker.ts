import type { AmbientProcess } from "../tool/ambient-process.js";
import { safelyFromInstance } from "../tool/instance-tools.js";
import type { Tool } from "../tool/tool.js";
import type { TypeToken } from "../tool/type-token.js";
import type { DomainToolPredicate } from "./domain-tool-predicate.js";

/** A type whose returned instances contribute their `@llmTool` methods. */
export interface DomainToolSource {
  readonly type: TypeToken;
  readonly predicate: DomainToolPredicate<unknown>;
}

/** The bindings of one interaction as kept while it waits for a person (see {@link DomainToolTracker.snapshot}). */
export interface DomainToolBindings {
  /** Each registered type's current instance, by the type's name. */
  readonly bound: readonly (readonly [string, unknown])[];
  /** The object auto-discovery found last. */
  readonly discovered?: unknown;
}

/**
 * The instances bound during one interaction: one per registered type (the
 * last returned wins), or, in auto-discovery mode, the last object returned
 * that has tool methods (replacing every earlier binding).
 */
export class DomainToolTracker {
  private readonly bound = new Map<TypeToken, object>();
  private discovered: object | undefined;
  private readonly toolsByInstance = new WeakMap<object, readonly Tool[]>();

  constructor(
    private readonly sources: readonly DomainToolSource[],
    private readonly fromAny: boolean,
  ) {}

  /**
   * Offers a returned artifact. Arrays and Sets are never bound. A registered
   * type's instance that its predicate accepts becomes that type's current
   * instance; otherwise, in auto-discovery mode, any object with tool methods
   * becomes the one discovered instance, and its tools are returned.
   */
  offer(artifact: unknown, process: AmbientProcess | undefined): readonly Tool[] | undefined {
    if (typeof artifact !== "object" || artifact === null) return undefined;
    if (Array.isArray(artifact) || artifact instanceof Set) return undefined;
    const source = this.sources.find((candidate) => candidate.type.is(artifact));
    if (source) {
      if (!source.predicate(artifact, process)) return undefined;
      this.bound.set(source.type, artifact);
      return undefined;
    }
    if (!this.fromAny) return undefined;
    const tools = this.toolsOf(artifact);
    if (tools.length === 0) return undefined;
    this.bound.clear();
    this.discovered = artifact;
    return tools;
  }

  /** The current instance of a registered type, if one was bound. */
  instanceOf(type: TypeToken): object | undefined {
    return this.bound.get(type);
  }

  /** The object found by auto-discovery, if any. */
  get discoveredInstance(): object | undefined {
    return this.discovered;
  }

  /** The bindings as a resumed interaction needs them back: each registered type's instance (by type name), and the discovered object. */
  snapshot(): DomainToolBindings | undefined {
    if (this.bound.size === 0 && this.discovered === undefined) return undefined;
    return {
      bound: [...this.bound].map(([type, instance]) => [type.name, instance] as const),
      ...(this.discovered === undefined ? {} : { discovered: this.discovered }),
    };
  }

  /**
   * Binds again what {@link DomainToolTracker.snapshot} kept (the predicates
   * accepted these instances already). An entry whose type is not registered
   * here, or whose value is not an instance of it, is skipped; a discovered
   * object without tool methods too. Returns the discovered object's tools.
   */
  restore(bindings: DomainToolBindings): readonly Tool[] {
    for (const [name, instance] of bindings.bound) {
      const source = this.sources.find((candidate) => candidate.type.name === name);
      if (source?.type.is(instance) && typeof instance === "object" && instance !== null)
        this.bound.set(source.type, instance);
    }
    const discovered = bindings.discovered;
    if (!this.fromAny || typeof discovered !== "object" || discovered === null) return [];
    const tools = this.toolsOf(discovered);
    if (tools.length > 0) this.discovered = discovered;
    return tools;
  }

  /** The tools of `instance`'s `@llmTool` methods (derived once per instance). */
  toolsOf(instance: object): readonly Tool[] {
    let tools = this.toolsByInstance.get(instance);
    if (!tools) {
      tools = safelyFromInstance(instance);
      this.toolsByInstance.set(instance, tools);
    }
    return tools;
  }
}
