import { ToolResult } from "../tool/tool-result.js";
import { Unfolding } from "../tool/unfolding.js";

/** A copy of `result` (same kind, content, artifact or cause) carrying `unfolding`. */
export function withUnfolding(result: ToolResult, unfolding: Unfolding): ToolResult {
  const copy =
    result.kind === "text"
      ? ToolResult.text(result.content)
      : result.kind === "artifact"
        ? ToolResult.withArtifact(result.content, result.artifact)
        : ToolResult.error(result.content, result.cause);
  return Unfolding.attach(copy, unfolding);
}
