// A fixed split of the labelled requests into a dev set (the ranker's
// constants may be tuned on it) and a held-out set (never tuned on; it says
// what an unseen request gets). Decided by a hash of the request's text, so
// it does not depend on the order of QUERIES and a new request falls in a
// set of its own accord. Fixed before any tuning.

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** `"dev"` or `"held-out"`: which set the request `query` belongs to (115 / 115 of today's 230). */
export function splitOf(query) {
  return fnv1a(query) % 2 === 0 ? "dev" : "held-out";
}
