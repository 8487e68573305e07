import { randomFillSync } from "node:crypto";

/** Random bytes for 256 ids, refilled when spent (as `randomUUID` buffers its entropy). */
const pool = new Uint8Array(16 * 256);
let next = pool.length;
/** The 36 ASCII characters of the id being written. */
const text = Buffer.alloc(36);
/** `HEX[b]`: the two ASCII hex digits of byte `b`, high first. */
const HEX = Uint16Array.from({ length: 256 }, (_, byte) => {
  const digits = byte.toString(16).padStart(2, "0");
  return (digits.charCodeAt(0) << 8) | digits.charCodeAt(1);
});
/** Where each of the 16 bytes goes in the text (the dashes sit at 8, 13, 18 and 23). */
const OFFSETS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
text[8] = text[13] = text[18] = text[23] = 0x2d;

/**
 * A random (version 4) UUID held as one flat string. Node's `randomUUID()`
 * builds its string by concatenation, which V8 keeps as a tree of some
 * fifteen pieces (about 490 bytes) until something flattens it; ids live as
 * long as their process or loop, so this one writes the 36 characters into
 * a buffer and reads them as one sequential string (about 65 bytes).
 */
export function flatUuid(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next;
  next += 16;
  for (let index = 0; index < 16; index++) {
    let byte = pool[start + index] as number;
    if (index === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (index === 8) byte = (byte & 0x3f) | 0x80; // RFC 4122 variant
    const digits = HEX[byte] as number;
    const at = OFFSETS[index] as number;
    text[at] = digits >> 8;
    text[at + 1] = digits & 0xff;
  }
  return text.toString("latin1");
}
