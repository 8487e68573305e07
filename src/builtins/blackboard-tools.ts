import { AgentProcess } from "../platform/agent-process.js";
import type { Blackboard } from "../platform/blackboard.js";
import { UnfoldingTool } from "../progressive/unfolding-tool.js";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolMetadata } from "../tool/tool-metadata.js";
import { stringParam, toolParams } from "../tool/tool-params.js";
import { ToolResult } from "../tool/tool-result.js";
import { typeNameOf } from "../tool/type-token.js";
import {
  type BlackboardEntryFormatter,
  DefaultBlackboardEntryFormatter,
} from "./blackboard-entry-formatter.js";

/** Checks its own arguments, so the chapter's in-band texts reach the model (see `ToolMetadata.lenientArguments`). */
const LENIENT = /* @__PURE__ */ ToolMetadata.create({ lenientArguments: true });

/** What every `blackboard` tool answers outside an agent process. */
export const NO_BLACKBOARD = "No agent process available. Blackboard tools require an active agent context.";

type Params = Readonly<Record<string, unknown>>;

/** The type name shown for a blackboard object: a plain object's `_typeName`, else its domain type or class. */
function typeNameFor(value: unknown): string {
  if (typeof value === "object" && value !== null) {
    const tag = (value as { _typeName?: unknown })._typeName;
    if (typeof tag === "string" && tag !== "") return tag;
  }
  return typeNameOf(value);
}

function blackboardTool(
  name: string,
  description: string,
  inputSchema: InputSchema,
  answer: (blackboard: Blackboard, params: Params) => string,
): Tool {
  return Tool.of(name, description, inputSchema, LENIENT, async (input) => {
    const process = AgentProcess.current();
    if (!process) return ToolResult.text(NO_BLACKBOARD);
    return ToolResult.text(answer(process.blackboard, toolParams(input)));
  });
}

function list(blackboard: Blackboard): string {
  const objects = blackboard.objects;
  if (objects.length === 0) return "Blackboard is empty - no objects available.";
  const lines = objects.map((value, index) => `[${index}] ${typeNameFor(value)}`);
  return `Blackboard contains ${objects.length} object(s):\n${lines.join("\n")}`;
}

function bound(
  blackboard: Blackboard,
  params: Params,
  render: (typeName: string, name: string, value: unknown) => string,
): string {
  const name = stringParam(params, "name");
  if (name === undefined) return "Missing required parameter: name";
  const value = blackboard.get(name);
  if (value === undefined || value === null) return `No object found with binding name '${name}'`;
  return render(typeNameFor(value), name, value);
}

/**
 * The specification's `BlackboardTools`: the LLM's view of the current
 * process's blackboard (hidden objects never show).
 */
export const BlackboardTools = {
  /**
   * The UnfoldingTool `blackboard`, unfolding into `blackboard_list`,
   * `blackboard_get`, `blackboard_last`, `blackboard_describe` and
   * `blackboard_count`; objects are rendered by `formatter` (an object with
   * `format`, or a function).
   */
  create(
    formatter: BlackboardEntryFormatter | ((entry: unknown) => string) = DefaultBlackboardEntryFormatter,
  ): UnfoldingTool {
    const format = typeof formatter === "function" ? formatter : (value: unknown) => formatter.format(value);
    return UnfoldingTool.of(
      "blackboard",
      "Access objects in the current process context. Invoke to see available operations for listing, getting, and describing objects.",
      [
        blackboardTool(
          "blackboard_list",
          "List all objects currently in the blackboard with their types and indices",
          InputSchema.empty(),
          list,
        ),
        blackboardTool(
          "blackboard_get",
          "Get an object by its binding name",
          InputSchema.of(Param.string("name", "The binding name to look up")),
          (blackboard, params) =>
            bound(blackboard, params, (type, name, value) => `${type} bound to '${name}':\n${format(value)}`),
        ),
        blackboardTool(
          "blackboard_last",
          "Get the most recent object of a given type. Matches by simple class name or fully qualified name.",
          InputSchema.of(Param.string("typeName", "The type name (e.g., 'User' or 'com.example.User')")),
          (blackboard, params) => {
            const typeName = stringParam(params, "typeName");
            if (typeName === undefined) return "Missing required parameter: typeName";
            const last = blackboard.last(typeName);
            if (last === undefined) return `No object of type '${typeName}' found in blackboard`;
            return `Last ${typeNameFor(last)}:\n${format(last)}`;
          },
        ),
        blackboardTool(
          "blackboard_describe",
          "Get a detailed description/formatting of an object by its binding name",
          InputSchema.of(Param.string("name", "The binding name of the object to describe")),
          (blackboard, params) =>
            bound(
              blackboard,
              params,
              (type, name, value) => `Description of ${type} '${name}':\n${format(value)}`,
            ),
        ),
        blackboardTool(
          "blackboard_count",
          "Count the number of objects of a given type in the blackboard",
          InputSchema.of(
            Param.string("typeName", "The type name to count (e.g., 'User' or 'com.example.User')"),
          ),
          (blackboard, params) => {
            const typeName = stringParam(params, "typeName");
            if (typeName === undefined) return "Missing required parameter: typeName";
            return `Found ${blackboard.count(typeName)} object(s) of type '${typeName}' in blackboard`;
          },
        ),
      ],
      {
        childToolUsageNotes:
          "Use blackboard_list to see what's available. Use blackboard_get for named bindings, blackboard_last for the most recent of a type.",
      },
    );
  },
};
