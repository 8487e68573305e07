import { ToolNotFoundError } from "../errors/tool-not-found-error.js";

/** Tuning of the closest-name suggestions (research 3.4 defaults). */
export interface ToolNameMatchOptions {
  /** Tokens shorter than this are ignored. @default 3 */
  readonly minTokenLength?: number;
  /** Suggestions scoring below this are dropped. @default 0.25 */
  readonly minTokenSimilarity?: number;
}

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Longer names are cut before splitting (a tool name is at most 64 characters; the split is quadratic on long capital runs). */
const MAX_NAME_CHARS = 128;

function tokens(name: string, minTokenLength: number): Set<string> {
  const split = name
    .slice(0, MAX_NAME_CHARS)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^a-zA-Z0-9]+/)
    .map((token) => token.toLowerCase())
    .filter((token) => token.length >= minTokenLength);
  return new Set(split);
}

function jaccard(left: Set<string>, right: Set<string>): number {
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const token of left) if (right.has(token)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/**
 * The available names closest to `requested`: an exact match after
 * lowercasing and dropping non-alphanumerics, else the best token (Jaccard)
 * matches, with a bonus when one name contains the other.
 */
export function closestToolNames(
  requested: string,
  available: readonly string[],
  options: ToolNameMatchOptions = {},
): string[] {
  const minTokenLength = options.minTokenLength ?? 3;
  const minSimilarity = options.minTokenSimilarity ?? 0.25;
  const wanted = normalise(requested);
  if (wanted.length < minTokenLength) return [];
  const exact = available.filter((name) => normalise(name) === wanted);
  if (exact.length > 0) return exact;
  const requestedTokens = tokens(requested, minTokenLength);
  const lowerRequested = requested.toLowerCase();
  const scored = available
    .map((name) => {
      let score = jaccard(requestedTokens, tokens(name, minTokenLength));
      const lowerName = name.toLowerCase();
      if (score > 0 && (lowerName.includes(lowerRequested) || lowerRequested.includes(lowerName))) {
        score = Math.min(1, score + 0.2);
      }
      return { name, score };
    })
    .filter((candidate) => candidate.score >= minSimilarity && candidate.score > 0)
    .sort((left, right) => right.score - left.score);
  const [best, second] = scored;
  if (!best) return [];
  if (!second || best.score >= 2 * second.score) return [best.name];
  return scored.slice(0, 3).map((candidate) => candidate.name);
}

/** The in-band answer to a call of a tool that does not exist (exact reference wording). */
export function unknownToolMessage(requested: string, available: readonly string[]): string {
  const matches = closestToolNames(requested, available);
  let suggestion = "";
  if (matches.length === 1) suggestion = ` Did you mean '${matches[0]}'?`;
  else if (matches.length > 1)
    suggestion = ` Possible matches: [${matches.map((name) => `'${name}'`).join(", ")}].`;
  return (
    `Tool '${requested}' does not exist.${suggestion} Available tools: [${available.join(", ")}]. ` +
    "Use the exact tool name from this list. Do not combine or prefix tool names — tool names found in source code or search results are not callable."
  );
}

/**
 * Counts consecutive calls of unknown tools within ONE loop: the first
 * `maxRetries` are answered in-band, the next throws {@link ToolNotFoundError}.
 * A call of an existing tool resets the count.
 */
export class UnknownToolCounter {
  private consecutiveMisses = 0;

  constructor(private readonly maxRetries = 3) {}

  /** A call found its tool. */
  found(): void {
    this.consecutiveMisses = 0;
  }

  /** A call missed: returns the in-band message, or throws once the misses exceed the limit. */
  missed(requested: string, available: readonly string[]): string {
    this.consecutiveMisses += 1;
    if (this.consecutiveMisses > this.maxRetries) throw new ToolNotFoundError(requested, available);
    return unknownToolMessage(requested, available);
  }
}
