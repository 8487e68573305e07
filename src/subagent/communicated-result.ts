/**
 * The text an LLM sees for an agent's result: a string as is, an object with
 * its own `toString` by that, anything else as compact JSON.
 */
export function communicatedResult(result: unknown): string {
  if (typeof result === "string") return result;
  if (result === undefined || result === null) return "";
  if (typeof result === "object") {
    const describe = (result as { toString?: () => string }).toString;
    if (typeof describe === "function" && describe !== Object.prototype.toString && !Array.isArray(result)) {
      return describe.call(result);
    }
  }
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    return String(result);
  }
}
