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
