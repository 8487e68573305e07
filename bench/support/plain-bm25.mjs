// The tool-search bench's baseline: textbook BM25 (k1 1.2, b 0.75, Lucene's
// idf) over each tool's name, description and parameter names as one field,
// lower-cased words split on anything not a letter or digit; no stemming, no
// synonyms, no field weights, no per-server cap. It is what a plain lexical
// search over the same catalogue finds, so the ranker's lift over it is
// measured in the same run as the ranker itself.

const K1 = 1.2;
const B = 0.75;

const words = (text) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** A plain BM25 index over `[name, description, ...parameterNames]` rows; `search(query, k)` gives the top k names. */
export function plainBm25(rows) {
  const documents = rows.map(([name, description, ...parameters]) =>
    words([name, description, ...parameters].join(" ")),
  );
  const count = documents.length;
  const averageLength = documents.reduce((sum, document) => sum + document.length, 0) / count;
  const documentFrequency = new Map();
  const termFrequencies = documents.map((document) => {
    const frequencies = new Map();
    for (const word of document) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
    for (const word of frequencies.keys())
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    return frequencies;
  });
  return {
    search(query, k) {
      const terms = [...new Set(words(query))];
      const scored = [];
      documents.forEach((document, index) => {
        let score = 0;
        for (const term of terms) {
          const frequency = termFrequencies[index].get(term);
          if (!frequency) continue;
          const containing = documentFrequency.get(term);
          const idf = Math.log(1 + (count - containing + 0.5) / (containing + 0.5));
          score +=
            (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * document.length) / averageLength));
        }
        if (score > 0) scored.push([score, index]);
      });
      // Ties keep catalogue order, so the baseline is deterministic.
      scored.sort((left, right) => right[0] - left[0] || left[1] - right[1]);
      return scored.slice(0, k).map(([, index]) => rows[index][0]);
    },
  };
}
