import { ConfigurationError } from "../errors/configuration-error.js";
import { DomainType } from "../tool/type-token.js";
import type { AgentAction } from "./agent-interface.js";

/** Tags a domain-typed output so lookups by type name find it; validates it against the declared type. */
export function coerceOutput(action: AgentAction, value: unknown): unknown {
  const type = action.output;
  if (!type) return value;
  if (value === undefined || value === null) {
    throw new ConfigurationError(
      `Action '${action.name}' returned nothing, but declares output ${type.name}.`,
    );
  }
  if (type.is(value)) return type instanceof DomainType ? type.tag(value) : value;
  try {
    return type.parse(value);
  } catch (error) {
    throw new ConfigurationError(
      `Action '${action.name}' returned a value that is not a ${type.name}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
