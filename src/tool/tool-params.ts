/**
 * The parameters of a built-in tool's raw JSON input: a JSON object's
 * fields; blank input, invalid JSON or anything but an object counts as no
 * parameters.
 */
export function toolParams(input: string): Readonly<Record<string, unknown>> {
  if (input.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(input);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The string parameter `name`, or `undefined` when absent or not a string. */
export function stringParam(params: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = params[name];
  return typeof value === "string" ? value : undefined;
}

/** The parameter `name` as text: a string as is, a number or boolean written out; `undefined` otherwise. */
export function textParam(params: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = params[name];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}
