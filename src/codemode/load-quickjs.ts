// Loads QuickJS (quickjs-emscripten's sync release build) on first use: a
// program that never runs code mode never imports it. The WebAssembly module
// is compiled once; each program gets its own instance with its own capped
// WebAssembly.Memory (setMemoryLimit alone does not cap typed arrays).

import type { QuickJSWASMModule } from "quickjs-emscripten-core";

type Core = typeof import("quickjs-emscripten-core");
type VariantOptions = Parameters<Core["newVariant"]>[1];

/** The part of the WebAssembly API used here (the project's type libraries do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  readonly Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
type Variant = import("quickjs-emscripten-core").QuickJSSyncVariant;

/** What a program's instance is made from: the library, the build, and its compiled module (when the file could be read). */
interface QuickJsParts {
  readonly core: Core;
  readonly variant: Variant;
  readonly compiled: object | undefined;
}

let loading: Promise<QuickJsParts> | undefined;

/** The QuickJS library and compiled module, imported once (a failed import is tried again on the next call). */
function loadParts(): Promise<QuickJsParts> {
  loading ??= (async () => {
    const [core, variantModule] = await Promise.all([
      import("quickjs-emscripten-core"),
      import("@jitl/quickjs-wasmfile-release-sync"),
    ]);
    const variant = (variantModule as unknown as { default: Variant }).default;
    return { core, variant, compiled: await compileWasm() };
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The build's .wasm compiled once; `undefined` where the file can't be read (each instance then loads it itself). */
async function compileWasm(): Promise<object | undefined> {
  try {
    const [{ createRequire }, { readFile }] = await Promise.all([
      import("node:module"),
      import("node:fs/promises"),
    ]);
    const path = createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
    return await wasm.compile(await readFile(path));
  } catch {
    return undefined;
  }
}

/** The WebAssembly page size. */
const PAGE = 65_536;
/** The build's initial memory (its INITIAL_MEMORY): an instance needs at least this much. */
export const MIN_MEMORY_BYTES = 16 * 1024 * 1024;

/** A QuickJS instance and its memory. */
export interface QuickJsInstance {
  readonly module: QuickJSWASMModule;
  readonly memory: WasmMemory;
}

/** One unused instance made after the last was taken, per memory size (programs start without waiting for one). */
const spares = new Map<number, Promise<QuickJsInstance>>();

/**
 * A fresh, never used QuickJS instance whose memory is capped at
 * `memoryBytes`: the spare one made after the previous program started, when
 * there is one; a new spare is then made in the background.
 */
export function takeQuickJsInstance(memoryBytes: number): Promise<QuickJsInstance> {
  const spare = spares.get(memoryBytes);
  const taken = spare ?? newQuickJsInstance(memoryBytes);
  const next = taken.then(() => newQuickJsInstance(memoryBytes));
  next.catch(() => spares.delete(memoryBytes));
  spares.set(memoryBytes, next);
  return taken;
}

/** A fresh QuickJS instance whose whole memory is at most `memoryBytes` (rounded down to 64 KiB pages). */
export async function newQuickJsInstance(memoryBytes: number): Promise<QuickJsInstance> {
  const { core, variant, compiled } = await loadParts();
  const memory = new wasm.Memory({
    initial: MIN_MEMORY_BYTES / PAGE,
    maximum: Math.max(MIN_MEMORY_BYTES / PAGE, Math.floor(memoryBytes / PAGE)),
  });
  const options = { wasmMemory: memory, ...(compiled !== undefined ? { wasmModule: compiled } : {}) };
  const custom = core.newVariant(variant, options as unknown as VariantOptions);
  return { module: await core.newQuickJSWASMModuleFromVariant(custom), memory };
}

/** True once QuickJS was loaded (for tests of lazy loading). */
export function quickJsLoaded(): boolean {
  return loading !== undefined;
}
