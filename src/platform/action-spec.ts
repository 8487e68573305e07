import { type TypeLike, TypeToken } from "../tool/type-token.js";
import type { AgentAction } from "./agent-interface.js";
import type { OperationContext } from "./operation-context.js";

/** What an action declares besides its name and body; shared by `@action` and `defineAgent`. */
export interface ActionSpec {
  /** What the action does. @default "" */
  readonly description?: string;
  /** One type or several; the action receives the values in this order, then the `OperationContext`. @default none */
  readonly input?: TypeLike | readonly TypeLike[];
  /** The type of the value the action returns (added to the blackboard). @default none */
  readonly output?: TypeLike;
  /** Planning cost; lower is preferred. @default 1 */
  readonly cost?: number;
  /** Extra preconditions (condition names, `!name` for false). @default [] */
  readonly pre?: readonly string[];
  /** Extra effects (condition names, `!name` for false). @default [] */
  readonly post?: readonly string[];
  /** Whether the action may run more than once in a process. @default false */
  readonly canRerun?: boolean;
}

/** A frozen {@link AgentAction} named `name` from `spec`, running `run` with the inputs then the context. */
export function buildAction(
  name: string,
  spec: ActionSpec,
  run: (...args: unknown[]) => unknown,
): AgentAction {
  const inputs = spec.input === undefined ? [] : Array.isArray(spec.input) ? spec.input : [spec.input];
  return Object.freeze({
    name,
    description: spec.description ?? "",
    inputs: Object.freeze(inputs.map((type: TypeLike) => TypeToken.of(type))),
    output: spec.output === undefined ? undefined : TypeToken.of(spec.output),
    cost: spec.cost ?? 1,
    pre: Object.freeze([...(spec.pre ?? [])]),
    post: Object.freeze([...(spec.post ?? [])]),
    canRerun: spec.canRerun ?? false,
    run: (values: readonly unknown[], context: OperationContext) => run(...values, context),
  });
}
