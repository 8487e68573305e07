import type { Tool } from "../tool/tool.js";

/** What a tool group needs to be allowed to do. */
export type ToolGroupPermission = "HOST_ACCESS" | "INTERNET_ACCESS";

/** The permission names, as the specification spells them (`ToolGroupPermission.INTERNET_ACCESS`). */
export const ToolGroupPermission = {
  /** The tools touch the host machine (files, processes). */
  HOST_ACCESS: "HOST_ACCESS",
  /** The tools reach the internet. */
  INTERNET_ACCESS: "INTERNET_ACCESS",
} as const satisfies Record<string, ToolGroupPermission>;

/** What a group is for: the role it is requested by and a description of it. */
export interface ToolGroupDescription {
  /** The name the group is requested by (`web`, `math`). */
  readonly role: string;
  /** What the group's tools do. */
  readonly description: string;
}

/** Who a tool group is and what it needs. */
export interface ToolGroupMetadata extends ToolGroupDescription {
  /** The implementation's own name (`docker-web`). */
  readonly name: string;
  /** Who supplies the tools (`Docker`, `embabel`). */
  readonly provider: string;
  /** @default "0.1.0" */
  readonly version: string;
  /** What the tools need to be allowed to do. @default [] */
  readonly permissions: readonly ToolGroupPermission[];
}

/**
 * A named set of tools requested by role (`web` rather than "Brave search"),
 * so that what a role means can differ between environments. `tools()` is
 * async so that MCP-backed groups can load on first use.
 */
export interface ToolGroup {
  readonly metadata: ToolGroupMetadata;
  /**
   * The group's tools; may load them on first call. `required` says the
   * caller can't do without them: a group that would otherwise degrade (an
   * MCP server down: no tools and a warning) rejects instead.
   */
  tools(options?: { readonly signal?: AbortSignal; readonly required?: boolean }): Promise<readonly Tool[]>;
}

/** Options of {@link ToolGroup.of}. */
export interface ToolGroupOptions {
  /** @default the role */
  readonly name?: string;
  /** @default "embabel" */
  readonly provider?: string;
  /** @default "0.1.0" */
  readonly version?: string;
  /** @default [] */
  readonly permissions?: readonly ToolGroupPermission[];
}

/** Metadata with defaults filled in. */
function metadata(description: ToolGroupDescription, options: ToolGroupOptions = {}): ToolGroupMetadata {
  return Object.freeze({
    role: description.role,
    description: description.description,
    name: options.name ?? description.role,
    provider: options.provider ?? "embabel",
    version: options.version ?? "0.1.0",
    permissions: Object.freeze([...(options.permissions ?? [])]),
  });
}

/** Factories for {@link ToolGroup}. */
export const ToolGroup = {
  /**
   * A group from a fixed list of tools, or from a loader called on first use
   * and cached once it succeeds (a failing load fails that use only; the next
   * use calls the loader again).
   */
  of(
    description: ToolGroupDescription,
    tools: readonly Tool[] | (() => readonly Tool[] | Promise<readonly Tool[]>),
    options: ToolGroupOptions = {},
  ): ToolGroup {
    const meta = metadata(description, options);
    if (typeof tools !== "function") {
      const fixed = Object.freeze([...tools]);
      return { metadata: meta, tools: async () => fixed };
    }
    let loading: Promise<readonly Tool[]> | undefined;
    return {
      metadata: meta,
      tools: () => {
        loading ??= (async () => Object.freeze([...(await tools())]))().catch((error: unknown) => {
          loading = undefined;
          throw error;
        });
        return loading;
      },
    };
  },
  /** Metadata with defaults filled in (provider `embabel`, version `0.1.0`, no permissions). */
  metadata,
  /** True for values shaped like a {@link ToolGroup}. */
  isToolGroup(value: unknown): value is ToolGroup {
    return (
      typeof value === "object" &&
      value !== null &&
      typeof (value as ToolGroup).tools === "function" &&
      typeof (value as ToolGroup).metadata === "object" &&
      (value as ToolGroup).metadata !== null &&
      typeof (value as ToolGroup).metadata.role === "string"
    );
  },
};
