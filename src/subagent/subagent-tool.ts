import { ConfigurationError } from "../errors/configuration-error.js";
import { AgentProcess } from "../platform/agent-process.js";
import { AbstractTool } from "../tool/abstract-tool.js";
import type { ToolCallOptions } from "../tool/tool.js";
import { ToolCallContext } from "../tool/tool-call-context.js";
import { type ToolDefinition, toolDefinition } from "../tool/tool-definition.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { ToolResult } from "../tool/tool-result.js";
import type { TypeToken } from "../tool/type-token.js";
import type { AgentReference } from "./agent-reference.js";
import { childProcessOptions } from "./child-process-options.js";
import { communicatedResult } from "./communicated-result.js";
import { shareChildObjects } from "./share-child-objects.js";
import { objectInputSchema, parseInput, toolNameFor } from "./tool-input.js";

/**
 * A tool that runs another agent: the handoff pattern. Its name and
 * description are the agent's, its input schema the consumed type's. A call
 * parses the input into that type and runs the agent as a child of the
 * current process, on a blackboard spawned from the parent's, with the
 * parent's verbosity, listeners, output channel and tool-call context. A
 * completed child's result comes back as text (and as the artifact); the
 * objects it added are then on the parent's blackboard too. A child that
 * fails, gets stuck or is terminated is an error result naming its status.
 * Made with `Subagent.ofClass(C).consuming(T)` and its siblings.
 */
export class SubagentTool<T = unknown> extends AbstractTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata = ToolMetadata.DEFAULT;

  constructor(
    private readonly reference: AgentReference,
    /** The type the LLM provides. */
    readonly inputType: TypeToken<T>,
  ) {
    super();
    const name = toolNameFor(reference.agentName, "agent");
    this.definition = toolDefinition(name, reference.description, objectInputSchema(inputType, name));
  }

  /** The name of the agent the tool runs. */
  get agentName(): string {
    return this.reference.agentName;
  }

  async call(
    input: string,
    context: ToolCallContext = ToolCallContext.EMPTY,
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const parent = AgentProcess.current();
    if (!parent) {
      throw new ConfigurationError(
        "No parent agent process found. Subagent must be called within an agent context.",
      );
    }
    const platform = parent.platform;
    if (!platform) {
      throw new ConfigurationError(
        `Subagent '${this.agentName}' needs the platform of the current process: run the parent with platform.runAgent or platform.runInProcess.`,
      );
    }
    const agent = this.reference.resolve(platform);
    const parsed = parseInput(input, this.inputType);
    if (!parsed.ok) return ToolResult.error(`Error parsing subagent input: ${parsed.message}`);
    const child = await platform.runAgent(agent, parsed.value, {
      processOptions: childProcessOptions(parent, context),
      parent,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // Killed from above (the call or the parent process): the call rejects with that reason.
    options.signal?.throwIfAborted();
    parent.signal.throwIfAborted();
    if (child.status === "completed") {
      shareChildObjects(child.blackboard, parent.blackboard, parsed.value);
      const text = communicatedResult(child.result);
      return child.result === undefined ? ToolResult.text(text) : ToolResult.withArtifact(text, child.result);
    }
    if (child.status === "waiting") {
      return ToolResult.text(
        `Subagent '${agent.name}' is waiting for input: ${child.statusReason ?? ""}`.trim(),
      );
    }
    const reason = child.statusReason ? `: ${child.statusReason}` : "";
    return ToolResult.error(`Subagent '${agent.name}' ${child.status}${reason}`, child.failure);
  }

  override toString(): string {
    return this.reference.label;
  }
}
