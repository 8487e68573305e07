import { ConfigurationError } from "../errors/configuration-error.js";
import type { Tool } from "../tool/tool.js";
import type { ToolGroup } from "./tool-group.js";

/** A request for a tool group by role, optionally insisting on some of its tools. */
export interface ToolGroupRequirement {
  /** The role the group is registered under (`web`, `math`). */
  readonly role: string;
  /** Tool names the group must offer; missing ones fail the call. @default [] */
  readonly requiredToolNames?: readonly string[];
}

/** Resolves tool groups by role (the platform's {@link ToolGroupRegistry} is one). */
export interface ToolGroupResolver {
  /** The group registered under `role`, or `undefined`. */
  get(role: string): ToolGroup | undefined;
  /** The registered roles, in registration order. */
  roles(): readonly string[];
}

/** The tool groups a platform knows, by role. Groups can be added after construction. */
export class ToolGroupRegistry implements ToolGroupResolver {
  private readonly byRole = new Map<string, ToolGroup>();

  /** A registry holding `groups`. */
  constructor(groups: Iterable<ToolGroup> = []) {
    for (const group of groups) this.register(group);
  }

  /** Adds `group`; a second group with the same role is a {@link ConfigurationError}. */
  register(group: ToolGroup): this {
    const role = group.metadata.role;
    const existing = this.byRole.get(role);
    if (existing !== undefined && existing !== group) {
      throw new ConfigurationError(
        `Tool group role '${role}' is already registered (by '${existing.metadata.name}'); cannot also register '${group.metadata.name}'.`,
      );
    }
    this.byRole.set(role, group);
    return this;
  }

  /** The group registered under `role`, or `undefined`. */
  get(role: string): ToolGroup | undefined {
    return this.byRole.get(role);
  }

  /** The registered roles, in registration order. */
  roles(): readonly string[] {
    return [...this.byRole.keys()];
  }

  /** The registered groups, in registration order. */
  groups(): readonly ToolGroup[] {
    return [...this.byRole.values()];
  }
}

function list(names: readonly string[]): string {
  return `[${names.join(", ")}]`;
}

/**
 * The tools of the group `requirement` names, loaded now. An unknown role, a
 * group that fails to load, or a group lacking required tools is a
 * {@link ConfigurationError} saying which.
 */
export async function resolveToolGroup(
  resolver: ToolGroupResolver,
  requirement: ToolGroupRequirement,
  options: { readonly signal?: AbortSignal } = {},
): Promise<readonly Tool[]> {
  const { role } = requirement;
  const required = requirement.requiredToolNames ?? [];
  const group = resolver.get(role);
  if (group === undefined) {
    const failure = `No tool group matching role '${role}'. Available roles: ${list(resolver.roles())}`;
    throw new ConfigurationError(
      required.length > 0
        ? `Required tool group with role='${role}' could not be resolved: ${failure}`
        : failure,
    );
  }
  let tools: readonly Tool[];
  try {
    tools = await group.tools({ signal: options.signal, required: required.length > 0 });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const failure = `Tool group '${group.metadata.name}' failed to load its tools: ${message}`;
    throw new ConfigurationError(
      required.length > 0
        ? `Required tool group with role='${role}' could not be resolved: ${failure}`
        : `Tool group with role='${role}' could not be resolved: ${failure}`,
      { cause: error },
    );
  }
  if (required.length === 0) return tools;
  if (tools.length === 0) {
    throw new ConfigurationError(
      `Required tool group with role='${role}' has no tools; required: ${list(required)}`,
    );
  }
  const available = tools.map((tool) => tool.definition.name);
  const missing = required.filter((name) => !available.includes(name));
  if (missing.length > 0) {
    throw new ConfigurationError(
      `Tool group with role='${role}' is missing required tools: ${list(missing)}. Available: ${list(available)}`,
    );
  }
  return tools;
}
