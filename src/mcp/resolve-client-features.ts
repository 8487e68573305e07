import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { McpSamplingModel } from "./mcp-sampling.js";
import type {
  McpClientFeatures,
  McpConfigOptions,
  McpRoot,
  ResolvedClientFeatures,
} from "./mcp-server-config.js";

/** A server's `onElicitation`, `roots` and `sampling`, with the options' defaults. */
export function resolveClientFeatures(
  features: McpClientFeatures,
  options: McpConfigOptions,
  where: string,
): ResolvedClientFeatures {
  const onElicitation = features.onElicitation ?? options.onElicitation;
  const roots = features.roots?.map((root) => rootOf(root, `${where}.roots`));
  let sampling: McpSamplingModel | undefined;
  if (features.sampling) {
    if (!options.samplingModel) {
      throw new ConfigurationError(
        `${where}.sampling needs models to answer with: create the clients with AgentPlatform.create (or pass McpConfigOptions.samplingModel).`,
      );
    }
    const limits = features.sampling === true ? {} : features.sampling;
    sampling = {
      role: limits.role ?? "default",
      model: options.samplingModel,
      ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
      ...(limits.maxCallsPerToolCall === undefined
        ? {}
        : { maxCallsPerToolCall: limits.maxCallsPerToolCall }),
    };
  }
  return {
    ...(onElicitation ? { onElicitation } : {}),
    ...(roots ? { roots } : {}),
    ...(sampling ? { sampling } : {}),
    ...(features.logLevel === undefined ? {} : { logLevel: features.logLevel }),
    ...(features.maxNotificationsPerCall === undefined
      ? {}
      : { maxNotificationsPerCall: features.maxNotificationsPerCall }),
    ...(features.protocolVersion === undefined ? {} : { protocolVersion: features.protocolVersion }),
  };
}

/** A configured root as `{ uri, name? }`: an absolute path becomes a `file://` URI named after its last segment. */
function rootOf(root: string | McpRoot, where: string): McpRoot {
  if (typeof root !== "string")
    return root.name === undefined ? { uri: root.uri } : { uri: root.uri, name: root.name };
  if (isAbsolute(root))
    return { uri: pathToFileURL(root).href, name: root.split(/[\\/]/).filter(Boolean).pop() ?? root };
  try {
    return { uri: new URL(root).href };
  } catch {
    throw new ConfigurationError(`${where}: '${root}' is neither an absolute path nor a URI.`);
  }
}
