import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Logger } from "../tool/logger.js";
import type { Tool } from "../tool/tool.js";
import { toolDocumentText } from "./tool-search-document.js";

/** Turns texts into vectors (one per text, in order); `id` names the model, so caches never mix models. */
export interface ToolEmbedder {
  readonly id: string;
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** Embeddings kept in memory across facades (a rebuilt MCP facade reuses them); the oldest go first. */
const MAX_CACHED = 100_000;
const shared = new Map<string, Float32Array>();

function remember(key: string, vector: Float32Array): void {
  shared.set(key, vector);
  if (shared.size > MAX_CACHED) {
    const oldest = shared.keys().next();
    if (!oldest.done) shared.delete(oldest.value);
  }
}

function unit(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0)
    for (let index = 0; index < vector.length; index++) vector[index] = (vector[index] as number) / norm;
  return vector;
}

function cacheKey(embedderId: string, text: string): string {
  return `${embedderId}\u0000${createHash("sha256").update(text).digest("hex")}`;
}

/**
 * The embedding of each tool of a catalogue, computed once per tool content
 * (name, description, parameter names) and model, and cached by content hash:
 * in memory, and in `cacheFile` when given (JSON, read once, rewritten after
 * new tools were embedded).
 */
export class ToolEmbeddings {
  private readonly texts: readonly string[];
  private loadedFile: Promise<void> | undefined;
  /** The catalogue embedding in progress, per embedder (concurrent first searches embed once). */
  private readonly inFlight = new Map<string, Promise<Float32Array[]>>();

  constructor(
    tools: readonly Tool[],
    private readonly cacheFile?: string,
  ) {
    this.texts = tools.map(toolDocumentText);
  }

  /** One unit vector per tool, in catalogue order; embeds (in one batch) only tools not cached yet. */
  vectors(embedder: ToolEmbedder): Promise<Float32Array[]> {
    let pending = this.inFlight.get(embedder.id);
    if (!pending) {
      pending = this.compute(embedder).finally(() => this.inFlight.delete(embedder.id));
      this.inFlight.set(embedder.id, pending);
    }
    return pending;
  }

  private async compute(embedder: ToolEmbedder): Promise<Float32Array[]> {
    if (this.cacheFile) {
      this.loadedFile ??= this.loadFile(this.cacheFile);
      await this.loadedFile;
    }
    const keys = this.texts.map((text) => cacheKey(embedder.id, text));
    const missing = [...new Set(keys.filter((key) => !shared.has(key)))];
    if (missing.length > 0) {
      const textByKey = new Map(keys.map((key, index) => [key, this.texts[index] as string]));
      const embedded = await embedder.embed(missing.map((key) => textByKey.get(key) as string));
      missing.forEach((key, index) => {
        remember(key, unit(embedded[index] ?? []));
      });
      if (this.cacheFile) await this.saveFile(this.cacheFile, keys);
    }
    return keys.map((key) => shared.get(key) ?? new Float32Array(0));
  }

  /** The unit vector of `text` (a query; not cached). */
  static async query(embedder: ToolEmbedder, text: string): Promise<Float32Array> {
    const [vector] = await embedder.embed([text]);
    return unit(vector ?? []);
  }

  private async loadFile(file: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      return; // no cache yet
    }
    try {
      const entries = JSON.parse(text) as Record<string, number[]>;
      for (const [key, values] of Object.entries(entries)) remember(key, Float32Array.from(values));
    } catch (error) {
      Logger.current().warn(`Tool embedding cache ${file} is not valid JSON; it will be rewritten.`, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private async saveFile(file: string, keys: readonly string[]): Promise<void> {
    let previous: Record<string, number[]> = {};
    try {
      previous = JSON.parse(await readFile(file, "utf8")) as Record<string, number[]>;
    } catch {
      previous = {};
    }
    for (const key of keys) {
      const vector = shared.get(key);
      if (vector) previous[key] = Array.from(vector);
    }
    try {
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(previous));
      await rename(temporary, file);
    } catch (error) {
      Logger.current().warn(`Could not write the tool embedding cache ${file}.`, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
