/**
 * How deeply a tool call's JSON arguments may nest. The loop puts the parsed
 * arguments back into the transcript, and a provider serialises the transcript
 * with `JSON.stringify`, which overflows the stack a few thousand levels down
 * (`JSON.parse` does not): without a bound, one deeply nested reply would
 * crash every later request of the loop instead of being answered in-band.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Whether the JSON text `input` nests arrays and objects more than
 * `MAX_ARGUMENT_DEPTH` levels deep (brackets inside strings do not count).
 * Text shorter than twice the limit cannot, so ordinary arguments cost one
 * length check.
 */
export function nestedTooDeeply(input: string): boolean {
  if (input.length <= 2 * MAX_ARGUMENT_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < input.length; index += 1) {
    const code = input.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > MAX_ARGUMENT_DEPTH) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}
