import { open, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { SKILL_FILE } from "./skill.js";

/** The files of a skill's folder the model may read, and those it may not (binary). */
export interface SkillFileListing {
  /** Text files, as paths relative to the folder with `/` separators (`references/guide.md`). */
  readonly text: readonly string[];
  /** Binary files (listed so the model knows they exist, but refused by `read_skill_file`). */
  readonly binary: readonly string[];
  /** True when the folder held more files than are listed. */
  readonly truncated: boolean;
}

/** A path resolved inside a skill's folder, or why it was refused. */
export type ResolvedSkillPath =
  | { readonly kind: "inside"; readonly path: string; readonly relative: string }
  | { readonly kind: "refused"; readonly reason: string };

const MAX_LISTED = 200;
const MAX_DEPTH = 6;
const SNIFF_BYTES = 8192;

/** True when `path` lies inside `folder` (both real paths). */
function isInside(folder: string, path: string): boolean {
  const between = relative(folder, path);
  return between !== "" && !between.startsWith("..") && !isAbsolute(between);
}

/**
 * Resolves `requested` (relative to the skill's real `folder`) to a file
 * inside it. Refused: empty or absolute paths, `..` leaving the folder,
 * symbolic links (anywhere on the way) that lead outside, and what is not a
 * regular file.
 */
export async function resolveSkillPath(folder: string, requested: string): Promise<ResolvedSkillPath> {
  const trimmed = requested.trim();
  if (trimmed.length === 0) return { kind: "refused", reason: "the path is empty" };
  if (isAbsolute(trimmed) || /^[a-zA-Z]:[\\/]/.test(trimmed) || trimmed.startsWith("~")) {
    return {
      kind: "refused",
      reason: "absolute paths are not allowed; give a path relative to the skill's folder",
    };
  }
  const joined = join(folder, trimmed);
  if (!isInside(folder, joined)) {
    return { kind: "refused", reason: "the path leads outside the skill's folder" };
  }
  let real: string;
  try {
    real = await realpath(joined);
  } catch {
    return { kind: "refused", reason: "no such file in the skill's folder" };
  }
  if (!isInside(folder, real)) {
    return { kind: "refused", reason: "the path is a link leading outside the skill's folder" };
  }
  const info = await stat(real);
  if (!info.isFile()) return { kind: "refused", reason: "the path is a folder, not a file" };
  return { kind: "inside", path: real, relative: relative(folder, joined).split(sep).join("/") };
}

/**
 * True for content that is not UTF-8 text: a NUL byte, or bytes that do not
 * decode. `isPrefix`: the bytes are the start of a longer file, so a
 * character cut at the end still counts as text.
 */
export function looksBinary(bytes: Uint8Array, isPrefix = false): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return false;
  } catch {
    return !(isPrefix && decodesWithoutTail(bytes));
  }
}

function decodesWithoutTail(bytes: Uint8Array): boolean {
  for (let cut = 1; cut <= 3; cut++) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, bytes.length - cut));
      return true;
    } catch {
      // try a shorter prefix
    }
  }
  return false;
}

/** The first bytes of a file (enough to tell text from binary), and whether the file is longer. */
export async function sniff(
  path: string,
  bytes = SNIFF_BYTES,
): Promise<{ readonly bytes: Uint8Array; readonly isPrefix: boolean }> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(bytes + 1);
    const { bytesRead } = await handle.read(buffer, 0, bytes + 1, 0);
    return { bytes: buffer.subarray(0, Math.min(bytesRead, bytes)), isPrefix: bytesRead > bytes };
  } finally {
    await handle.close();
  }
}

/**
 * The files under a skill's real `folder` except `SKILL.md`, sorted, with
 * links leading outside left out (at most 200, six levels deep).
 */
export async function listSkillFiles(folder: string): Promise<SkillFileListing> {
  const text: string[] = [];
  const binary: string[] = [];
  let truncated = false;
  const visit = async (dir: string, depth: number): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      if (text.length + binary.length >= MAX_LISTED) {
        truncated = true;
        return;
      }
      const path = join(dir, entry.name);
      const name = relative(folder, path).split(sep).join("/");
      if (name === SKILL_FILE) continue;
      let real: string;
      try {
        real = await realpath(path);
      } catch {
        continue;
      }
      if (!isInside(folder, real)) continue;
      const info = await stat(real);
      if (info.isDirectory()) {
        if (depth < MAX_DEPTH && !entry.isSymbolicLink()) await visit(path, depth + 1);
      } else if (info.isFile()) {
        const start = await sniff(real);
        (looksBinary(start.bytes, start.isPrefix) ? binary : text).push(name);
      }
    }
  };
  await visit(folder, 1);
  return { text, binary, truncated };
}
