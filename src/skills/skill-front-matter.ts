import { open } from "node:fs/promises";

/** The most front matter read from a `SKILL.md` before giving up on its closing `---`. */
export const MAX_FRONT_MATTER_BYTES = 64 * 1024;

const CHUNK_BYTES = 4096;
const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /\r?\n---[ \t]*\r?\n/;
const CLOSING_AT_END = /\r?\n---[ \t]*(?:\r?\n|$)/;

/** The front matter of a `SKILL.md`, as text, or why there is none. */
export type FrontMatterText =
  | { readonly kind: "found"; readonly yaml: string }
  | { readonly kind: "missing"; readonly problem: string };

/**
 * Splits a `SKILL.md` into its front matter and body (the text after the
 * closing `---`). `complete` is false while reading a prefix of the file: then
 * the closing line must end with a line break to count.
 */
export function splitSkillFile(
  text: string,
  complete = true,
): { readonly yaml: string; readonly body: string } | undefined {
  const opening = OPENING.exec(text.replace(/^\uFEFF/, ""));
  if (!opening) return undefined;
  const rest = text.replace(/^\uFEFF/, "").slice(opening[0].length);
  const closing = (complete ? CLOSING_AT_END : CLOSING).exec(`\n${rest}`);
  if (!closing) return undefined;
  const end = closing.index;
  return { yaml: rest.slice(0, Math.max(0, end - 1)), body: rest.slice(end - 1 + closing[0].length) };
}

/**
 * Reads a `SKILL.md` only as far as the end of its front matter (in 4 KiB
 * chunks, at most {@link MAX_FRONT_MATTER_BYTES}), so loading many skills
 * never reads their bodies.
 */
export async function readFrontMatter(file: string): Promise<FrontMatterText> {
  const handle = await open(file, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.alloc(CHUNK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, total);
      if (bytesRead > 0) {
        chunks.push(buffer.subarray(0, bytesRead));
        total += bytesRead;
      }
      const text = Buffer.concat(chunks)
        .toString("utf8")
        .replace(/^\uFEFF/, "");
      if (!OPENING.test(text) && (text.length >= 4 || bytesRead === 0)) {
        return { kind: "missing", problem: "the file must start with a '---' line opening the front matter" };
      }
      const split = splitSkillFile(text, bytesRead === 0);
      if (split) return { kind: "found", yaml: split.yaml };
      if (bytesRead === 0) return { kind: "missing", problem: "the front matter has no closing '---' line" };
      if (total >= MAX_FRONT_MATTER_BYTES) {
        return {
          kind: "missing",
          problem: `no closing '---' line in the first ${MAX_FRONT_MATTER_BYTES} bytes`,
        };
      }
    }
  } finally {
    await handle.close();
  }
}
