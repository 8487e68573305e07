/** The edit distance between `a` and `b` (insertions, deletions, substitutions, and swaps of two neighbours). */
function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(best);
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to `given` (ignoring case) when it is close enough to
 * be a typo: at most a third of its length apart, and at least 1 edit away.
 */
export function closestMatch(given: string, candidates: readonly string[]): string | undefined {
  const wanted = given.toLowerCase();
  let best: { readonly name: string; readonly score: number } | undefined;
  for (const candidate of candidates) {
    const score = distance(wanted, candidate.toLowerCase());
    if (
      score <= Math.max(1, Math.floor(candidate.length / 3)) &&
      (best === undefined || score < best.score)
    ) {
      best = { name: candidate, score };
    }
  }
  return best?.name;
}

/** ` Did you mean 'x'?` for the closest candidate, or "" when none is close. */
export function didYouMean(given: string, candidates: readonly string[]): string {
  const match = closestMatch(given, candidates);
  return match === undefined ? "" : ` Did you mean '${match}'?`;
}
