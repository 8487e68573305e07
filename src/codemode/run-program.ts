import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { GUEST_PRELUDE } from "./guest-prelude.js";
import { takeQuickJsInstance } from "./load-quickjs.js";
import type { JournalEntry, JournalOutcome, ProgramJournal } from "./program-journal.js";
import { sourceHash } from "./program-journal.js";

/** The limits one program runs under. */
export interface ProgramLimits {
  /** Wall-clock time for the whole program, inner calls included. */
  readonly timeoutMs: number;
  /** The sandbox's whole memory (its own WebAssembly.Memory). */
  readonly memoryBytes: number;
  /** Inner tool calls per program. */
  readonly maxToolCalls: number;
  /** Characters of output (console lines and the result) sent back. */
  readonly maxOutputChars: number;
}

/** How the host answers one inner call: a result, an error the program sees, or a wait for a person. */
export type HostAnswer<P> = JournalOutcome | { readonly pending: P };

/** One program to run. */
export interface ProgramRun<P> {
  readonly source: string;
  /** The names of the tools it may call (bound into the journal's hash). */
  readonly toolNames: readonly string[];
  readonly limits: ProgramLimits;
  /** What earlier attempts did (a resumed program); calls it holds are answered from it. */
  readonly journal?: ProgramJournal;
  /** Runs inner call number `index` live. */
  call(index: number, tool: string, args: string, signal: AbortSignal): Promise<HostAnswer<P>>;
  /** Told of each call answered from the journal instead of running. */
  onReplayed?(entry: JournalEntry): void;
  readonly signal?: AbortSignal;
}

/** What a program came to. */
export type ProgramOutcome<P> =
  | { readonly kind: "done"; readonly output: string; readonly journal: ProgramJournal }
  /** An in-band error the model can act on. */
  | { readonly kind: "failed"; readonly message: string; readonly journal: ProgramJournal }
  /** Inner calls wait for a person: the attempt ended; run it again with `journal` once answered. */
  | { readonly kind: "pending"; readonly pending: readonly P[]; readonly journal: ProgramJournal };

/** Lines the wrapper adds above the model's first line. */
const WRAPPER_LINES = 1;
const FILE = "program.js";

interface Call<P> {
  readonly index: number;
  readonly tool: string;
  readonly args: string;
  readonly answer: Promise<HostAnswer<P> & { at?: number }>;
}

/**
 * Runs a program in a fresh QuickJS instance with its own capped memory: the
 * model's code is the body of an async function with `tools` in scope. Inner
 * calls run concurrently on the host and settle into the guest one at a time
 * in the order they were made, with the guest clock set to the settle time,
 * so a replay from the journal sees exactly what the first attempt saw. The
 * instance is dropped, never freed (freeing a runtime with open handles aborts
 * the process).
 */
export async function runProgram<P>(run: ProgramRun<P>): Promise<ProgramOutcome<P>> {
  const { limits, source } = run;
  const previous = run.journal?.sourceHash === sourceHash(source, run.toolNames) ? run.journal : undefined;
  const startedAt = previous?.startedAt ?? Date.now();
  const seed = previous?.seed ?? Math.floor(Math.random() * 2 ** 32);
  const recorded = new Map((previous?.entries ?? []).map((entry) => [entry.index, entry]));
  const entries = new Map(recorded);
  const journal = (): ProgramJournal => ({
    sourceHash: sourceHash(source, run.toolNames),
    startedAt,
    seed,
    entries: [...entries.values()].sort((a, b) => a.index - b.index),
  });
  const failed = (message: string): ProgramOutcome<P> => ({ kind: "failed", message, journal: journal() });

  const deadline = performance.now() + limits.timeoutMs;
  const controller = new AbortController();
  const onAbort = () => controller.abort(run.signal?.reason);
  run.signal?.addEventListener("abort", onAbort, { once: true });
  let stop: string | undefined;
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timed-out">((resolve) => {
    deadlineTimer = setTimeout(() => resolve("timed-out"), limits.timeoutMs);
  });
  const timeLimit = `The program ran longer than its time limit of ${limits.timeoutMs} ms and was stopped. Do less work in one program (fewer calls, no unbounded loops).`;
  try {
    const { module } = await takeQuickJsInstance(limits.memoryBytes);
    const runtime: QuickJSRuntime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(256 * 1024);
    runtime.setInterruptHandler(() => {
      if (stop === undefined && performance.now() > deadline) stop = timeLimit;
      return stop !== undefined || controller.signal.aborted;
    });
    const vm: QuickJSContext = runtime.newContext();

    let clock = startedAt;
    let output = "";
    let outputOver = false;
    const calls: Call<P>[] = [];
    const addOutput = (line: string) => {
      if (outputOver) return;
      output += output === "" ? line : `\n${line}`;
      if (output.length > limits.maxOutputChars) outputOver = true;
    };

    const host = vm.newObject();
    vm.setProp(host, "seed", vm.newNumber(seed));
    const clockFn = vm.newFunction("clock", () => vm.newNumber(clock));
    const logFn = vm.newFunction("log", (text) => {
      addOutput(vm.getString(text));
    });
    const callFn = vm.newFunction("call", (nameHandle, argsHandle) => {
      const index = calls.length;
      const tool = vm.getString(nameHandle);
      const args = vm.getString(argsHandle);
      if (index >= limits.maxToolCalls) {
        stop ??= `The program made more than ${limits.maxToolCalls} tool calls, its limit, and was stopped. Make fewer calls (batch where a tool takes many ids) or split the work.`;
        return vm.newNumber(index);
      }
      calls.push({ index, tool, args, answer: answerOf(index, tool, args) });
      return vm.newNumber(index);
    });
    vm.setProp(host, "clock", clockFn);
    vm.setProp(host, "log", logFn);
    vm.setProp(host, "call", callFn);
    vm.setProp(vm.global, "__host", host);

    const answerOf = (index: number, tool: string, args: string): Call<P>["answer"] => {
      const entry = recorded.get(index);
      if (entry !== undefined) {
        if (entry.tool !== tool || entry.args !== args) {
          stop ??= `The program diverged from its earlier run at tool call #${index + 1}: it called ${tool}(${args}) where it had called ${entry.tool}(${entry.args}). Programs must make the same calls in the same order when they resume.`;
          return Promise.resolve({ ok: false, message: "diverged" });
        }
        run.onReplayed?.(entry);
        return Promise.resolve({ ...entry.outcome, at: entry.at });
      }
      return run.call(index, tool, args, controller.signal).then(
        (answer) => ("pending" in answer ? answer : { ...answer, at: Date.now() }),
        (error: unknown) => ({ ok: false, message: messageOf(error), at: Date.now() }),
      );
    };

    const prelude = vm.evalCode(GUEST_PRELUDE, "prelude.js");
    if (prelude.error)
      throw new Error(
        `Internal error: the code-mode prelude failed: ${JSON.stringify(vm.dump(prelude.error))}`,
      );
    const settle = vm.getProp(prelude.value, 0);
    const runFn = vm.getProp(prelude.value, 1);

    const compiled = vm.evalCode(`(async () => {\n${source}\n})`, FILE);
    if (compiled.error) return failed(describeError(vm, compiled.error, stop));
    const started = vm.callFunction(runFn, vm.undefined, compiled.value);
    if (started.error) return failed(describeError(vm, started.error, stop));
    const promise: QuickJSHandle = started.value;

    let next = 0;
    const waiting: P[] = [];
    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) return failed(describeError(vm, jobs.error, stop));
      if (stop !== undefined) return failed(stop);
      const state = vm.getPromiseState(promise);
      if (state.type === "fulfilled") {
        const text = vm.typeof(state.value) === "string" ? vm.getString(state.value) : undefined;
        if (text !== undefined) addOutput(text);
        if (outputOver)
          return failed(
            `The program's output (console lines and result) is longer than its limit of ${limits.maxOutputChars} characters. Return a smaller result: aggregate or pick fields in the program instead of returning raw data.`,
          );
        return {
          kind: "done",
          output: output === "" ? "(no result: the program returned nothing)" : output,
          journal: journal(),
        };
      }
      if (state.type === "rejected") return failed(describeError(vm, state.error, stop));
      const call = calls[next];
      if (call === undefined || waiting.length > 0) {
        if (waiting.length > 0 || calls.length > next) {
          await Promise.allSettled(calls.slice(next).map((c) => c.answer));
          for (const later of calls.slice(next)) {
            const answer = await later.answer;
            if ("pending" in answer) {
              if (!waiting.includes(answer.pending)) waiting.push(answer.pending);
            } else entries.set(later.index, entryOf(later, answer));
          }
          return { kind: "pending", pending: waiting, journal: journal() };
        }
        return failed(
          "The program is waiting on something that never settles (only tool calls settle here: there are no timers or network). Await only tool calls.",
        );
      }
      const answer = await Promise.race([call.answer, timedOut]);
      if (answer === "timed-out") return failed(timeLimit);
      if ("pending" in answer) {
        waiting.push(answer.pending);
        continue;
      }
      const entry = entryOf(call, answer);
      entries.set(call.index, entry);
      clock = entry.at;
      next += 1;
      const settled = vm.callFunction(
        settle,
        vm.undefined,
        vm.newNumber(call.index),
        answer.ok ? vm.true : vm.false,
        vm.newString(answer.ok ? answer.text : answer.message),
      );
      if (settled.error) return failed(describeError(vm, settled.error, stop));
    }
  } finally {
    clearTimeout(deadlineTimer);
    controller.abort();
    run.signal?.removeEventListener("abort", onAbort);
  }
}

function entryOf<P>(call: Call<P>, answer: JournalOutcome & { at?: number }): JournalEntry {
  const outcome: JournalOutcome = answer.ok
    ? { ok: true, text: answer.text }
    : { ok: false, message: answer.message };
  return { index: call.index, tool: call.tool, args: call.args, outcome, at: answer.at ?? Date.now() };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** An error thrown in the guest as one line the model can act on: kind, place in its own lines, message, and what to change. */
function describeError(vm: QuickJSContext, handle: QuickJSHandle, stop: string | undefined): string {
  if (stop !== undefined) return stop;
  const error = vm.dump(handle) as unknown;
  if (typeof error !== "object" || error === null)
    return `The program threw ${JSON.stringify(error) ?? String(error)}. Throw an Error, or return a value instead.`;
  const { name, message, stack, lineNumber } = error as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
    lineNumber?: unknown;
  };
  const kind = typeof name === "string" ? name : "Error";
  const text = typeof message === "string" ? message : "";
  if (kind === "InternalError" && text === "out of memory")
    return "The program ran out of memory (its sandbox has a fixed memory limit). Work on less data at once: do not build large arrays or strings.";
  if (kind === "InternalError" && text === "interrupted") return "The program was stopped.";
  if (kind === "RangeError" && text.includes("stack overflow"))
    return "The program overflowed its stack (too deep a recursion). Use a loop instead.";
  const where = placeOf(
    typeof stack === "string" ? stack : "",
    typeof lineNumber === "number" ? lineNumber : undefined,
  );
  const at = where === undefined ? "" : ` at line ${where}`;
  if (kind === "SyntaxError")
    return `SyntaxError${at}: ${sentence(text)} The code must be the body of an async function (plain JavaScript, no TypeScript types or imports); fix the syntax and call again.`;
  if (kind === "ToolError")
    return `A tool call failed${at}: ${sentence(text)} Fix the call, or catch the error in the program.`;
  return `The program threw ${kind}${at}: ${sentence(text)} Fix the code and call again.`;
}

/** `text` ending in a full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** `line:col` of the first frame in the program, in the model's own line numbers. */
function placeOf(stack: string, lineNumber: number | undefined): string | undefined {
  const match = new RegExp(`${FILE.replace(".", "\\.")}:(\\d+)(?::(\\d+))?`).exec(stack);
  const line = match ? Number(match[1]) : lineNumber;
  if (line === undefined) return undefined;
  const own = Math.max(1, line - WRAPPER_LINES);
  return match?.[2] !== undefined ? `${own}:${match[2]}` : String(own);
}
