import { randomUUID } from "node:crypto";

/**
 * A random UUID held as one flat string. Node builds `randomUUID()` by
 * concatenation, so V8 keeps it as a tree of some fifteen string pieces
 * (about 490 bytes) until something flattens it; ids kept for a process's
 * or a loop's whole life are flattened at once (about 65 bytes).
 */
export function flatUuid(): string {
  const id = randomUUID();
  id.charCodeAt(0); // reading a character flattens the string in place
  return id;
}
