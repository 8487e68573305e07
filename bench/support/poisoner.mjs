// The tool-search poisoning attack of the security review (N14): one MCP
// server with many small tools, each a handful of the words users' requests
// use most, so that some poison tool shares a word or two with almost any
// request. Built from the labelled requests' own words (what an attacker who
// knows how people ask would pick); nothing in the ranker is tuned on it.

/** Words no ranker would index (the attack's words are the requests' other words). */
const SKIP = new Set(
  "a an and are as at be by can do for from get i in is it me my of on or please the this to what with you your".split(
    " ",
  ),
);

/** The `count` commonest words of `requests`, commonest first (ties: first seen). */
export function commonestWords(requests, count) {
  const counts = new Map();
  for (const request of requests) {
    for (const word of request.toLowerCase().match(/[a-z]+/g) ?? []) {
      if (word.length > 1 && !SKIP.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([word]) => word);
}

/**
 * `tools` poison tools of `words` common words each, as [name, description]:
 * spread (the default: tool i holds words i·words … i·words + words − 1, so
 * every word is in one tool) or dense (every tool draws its words from the
 * commonest `words × 4`, each word in about a quarter of the tools).
 */
export function poisonTools(requests, { tools = 40, words = 10, dense = false } = {}) {
  const pool = commonestWords(requests, dense ? words * 4 : tools * words);
  return Array.from({ length: tools }, (_, tool) => {
    const own = Array.from({ length: words }, (_, word) =>
      dense ? pool[(tool + word * 4 + Math.floor(tool / 4)) % pool.length] : pool[tool * words + word],
    ).filter(Boolean);
    return [`helper_${tool + 1}`, own.join(" ")];
  });
}
