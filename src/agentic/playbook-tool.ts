import { ConfigurationError } from "../errors/configuration-error.js";
import type { Blackboard } from "../platform/blackboard.js";
import type { OperationContext } from "../platform/operation-context.js";
import type { Tool } from "../tool/tool.js";
import { type TypeLike, TypeToken } from "../tool/type-token.js";
import { type AgenticSession, AgenticTool, defaultAgenticSystemPrompt } from "./agentic-tool.js";
import { LockedTool, PlaybookRecorder, PlaybookState, RecordingTool } from "./playbook-state.js";
import type { PlaybookContext, UnlockCondition } from "./unlock-condition.js";

/** The note a playbook's default system prompt adds after the task. */
const PREREQUISITES_NOTE =
  "Note: Some tools may require certain prerequisites before they become available.\nIf a tool indicates it is not yet available, use the required prerequisite tools first.";

interface LockedRegistration {
  readonly tool: Tool;
  readonly condition: UnlockCondition;
}

/** A tool, or a tool's name, naming a prerequisite. */
export type Prerequisite = Tool | string;

const nameOf = (prerequisite: Prerequisite): string =>
  typeof prerequisite === "string" ? prerequisite : prerequisite.definition.name;

/**
 * An agentic tool whose sub-tools unlock step by step: some are available
 * from the start (`withTools`), others once prerequisite tools were called,
 * an artifact of a type was produced, the blackboard holds something, or a
 * predicate holds (`withTool(t).unlockedBy(...)`). Every tool is declared to
 * the LLM from the start; a locked one says what to do first.
 *
 * @example
 * const researcher = PlaybookTool.create("researcher", "Research and analyze topics")
 *   .withTools(searchTool, fetchTool)
 *   .withTool(analyzeTool).unlockedBy(searchTool)
 *   .withTool(summarizeTool).unlockedBy(analyzeTool);
 */
export class PlaybookTool extends AgenticTool {
  private locked: readonly LockedRegistration[] = [];

  /** A playbook called `name` doing what `description` says. */
  static create(name: string, description: string): PlaybookTool {
    return new PlaybookTool(name, description);
  }

  /** Starts registering `tool` as a locked tool; choose its unlock condition next. */
  withTool(tool: Tool): PlaybookToolRegistration {
    return new PlaybookToolRegistration(this, tool);
  }

  /** The tools available from the start, then the locked ones. */
  override get innerTools(): readonly Tool[] {
    return [...super.innerTools, ...this.locked.map((registration) => registration.tool)];
  }

  /** How many tools are available from the start. */
  get unlockedToolCount(): number {
    return super.innerTools.length;
  }

  /** How many tools wait for a condition. */
  get lockedToolCount(): number {
    return this.locked.length;
  }

  /**
   * A copy with `tool` locked behind `condition` (used by {@link PlaybookToolRegistration});
   * a tool registered again needs all of its conditions.
   */
  withLockedTool(tool: Tool, condition: UnlockCondition): PlaybookTool {
    const name = tool.definition.name;
    this.checkNotAlwaysAvailable([name]);
    const copy = this.derive();
    const existing = this.locked.find((registration) => registration.tool.definition.name === name);
    copy.locked = existing
      ? this.locked.map((registration) =>
          registration === existing
            ? { tool, condition: { kind: "all-of", conditions: [existing.condition, condition] } }
            : registration,
        )
      : [...this.locked, { tool, condition }];
    return copy;
  }

  /** A copy with more tools available from the start; a tool that is also locked is a {@link ConfigurationError}. */
  override withTools(...tools: Tool[]): this {
    const copy = super.withTools(...tools);
    copy.checkNotAlwaysAvailable(this.locked.map((registration) => registration.tool.definition.name));
    return copy;
  }

  private checkNotAlwaysAvailable(lockedNames: readonly string[]): void {
    const always = new Set(super.innerTools.map((tool) => tool.definition.name));
    const both = lockedNames.find((name) => always.has(name));
    if (both !== undefined) {
      throw new ConfigurationError(
        `PlaybookTool '${this.definition.name}': tool '${both}' is both available from the start (withTools) and locked (withTool): use one of them.`,
      );
    }
  }

  protected get interactionKind(): string {
    return "playbook-tool";
  }

  protected configurationProblem(): string | undefined {
    return this.hasToolsOrChaining || this.locked.length > 0
      ? undefined
      : "No tools available for PlaybookTool";
  }

  protected startSession(context: OperationContext, _input: string): AgenticSession {
    const state = new PlaybookState(context.blackboard);
    return {
      tools: [
        ...super.innerTools.map((tool) => new RecordingTool(tool, state)),
        ...this.locked.map(({ tool, condition }) => new LockedTool(tool, condition, state)),
      ],
      defaultSystemPrompt: `${defaultAgenticSystemPrompt(this.definition.description)}\n\n${PREREQUISITES_NOTE}`,
      injectionStrategies: [new PlaybookRecorder(state)],
    };
  }
}

/** Chooses when a tool added with `PlaybookTool.withTool` unlocks; each method returns the playbook. */
export class PlaybookToolRegistration {
  constructor(
    private readonly playbook: PlaybookTool,
    private readonly tool: Tool,
  ) {}

  /** Unlocks after every one of `prerequisites` was called. */
  unlockedBy(...prerequisites: Prerequisite[]): PlaybookTool {
    return this.unlockedByAll(...prerequisites);
  }

  /** Unlocks after all of `prerequisites` were called (AND). */
  unlockedByAll(...prerequisites: Prerequisite[]): PlaybookTool {
    return this.when({ kind: "after-tools", toolNames: prerequisites.map(nameOf) });
  }

  /** Unlocks after any one of `prerequisites` was called (OR). */
  unlockedByAny(...prerequisites: Prerequisite[]): PlaybookTool {
    return this.when({
      kind: "any-of",
      conditions: prerequisites.map((prerequisite) => ({
        kind: "after-tools",
        toolNames: [nameOf(prerequisite)],
      })),
    });
  }

  /** Unlocks once a playbook tool returned an artifact of `type`. */
  unlockedByArtifact(type: TypeLike): PlaybookTool {
    return this.when({ kind: "on-artifact", type: TypeToken.of(type) as TypeToken });
  }

  /** Unlocks once a playbook tool returned an artifact that `predicate` accepts. */
  unlockedByArtifactMatching(predicate: (artifact: unknown) => boolean): PlaybookTool {
    return this.unlockedWhen((context) => context.artifacts.some(predicate));
  }

  /** Unlocks once the process's blackboard holds an object of `type`. */
  unlockedByBlackboard(type: TypeLike): PlaybookTool {
    const token = TypeToken.of(type) as TypeToken;
    return this.unlockedWhen((context) => context.blackboard.objects.some((value) => token.is(value)));
  }

  /** Unlocks once `predicate` holds for the process's blackboard. */
  unlockedByBlackboardMatching(predicate: (blackboard: Blackboard) => boolean): PlaybookTool {
    return this.unlockedWhen((context) => predicate(context.blackboard));
  }

  /** Unlocks once `predicate` holds (`context.iterationCount >= 3`). */
  unlockedWhen(predicate: (context: PlaybookContext) => boolean): PlaybookTool {
    return this.when({ kind: "when", predicate });
  }

  private when(condition: UnlockCondition): PlaybookTool {
    return this.playbook.withLockedTool(this.tool, condition);
  }
}
