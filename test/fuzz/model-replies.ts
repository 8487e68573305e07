import fc from "fast-check";
import type { FuzzPart, FuzzReply } from "./fuzz-model.js";
import { FUZZ_TOOLS, KNOWN_NAMES } from "./fuzz-tools.js";

// Generators of what a model may send back: every shape the issue lists, mixed.

/** Single characters that trip naive code: controls, NUL, lone surrogates, bidi marks, emoji. */
const nastyChar = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  fc.constantFrom("\u202e", "\u200b", "\ufeff", "\u2028", "😀", "👩‍👩‍👧", '"', "\\", "{", "}", "'"),
);

/** Text a model writes: mostly ordinary, sometimes full of awkward characters. */
export const modelText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: nastyChar, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constant("") },
);

/** A known name slightly wrong, as models get them: case, separators, prefixes, truncation. */
const nearMiss = fc
  .tuple(fc.constantFrom(...KNOWN_NAMES), fc.nat(7))
  .map(
    ([name, how]) =>
      [
        name.toUpperCase(),
        name.replace(/_/g, "-"),
        `functions.${name}`,
        `${name}_tool`,
        name.slice(0, Math.max(1, name.length - 2)),
        ` ${name}`,
        `${name}\u0000`,
        name.replace(/_(.)/g, (_match, next: string) => next.toUpperCase()),
      ][how] as string,
  );

/** Names that look like object members, to catch a lookup through a plain object. */
const prototypeName = fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "valueOf");

/** The tool name of a generated call. */
export const toolName = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...KNOWN_NAMES) },
  { weight: 3, arbitrary: nearMiss },
  { weight: 1, arbitrary: prototypeName },
  { weight: 1, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: modelText },
);

function validArgsFor(name: string): fc.Arbitrary<Record<string, unknown>> {
  return FUZZ_TOOLS.find((spec) => spec.name === name)?.validArgs ?? fc.record({ text: modelText });
}

/** Arguments nested `depth` levels deep, as raw JSON. */
const deeplyNested = fc
  .tuple(fc.integer({ min: 20, max: 30_000 }), fc.boolean())
  .map(([depth, object]) =>
    object ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}${"]".repeat(depth)}`,
  );

/** Large arguments: a long string field, or a long array. */
const huge = fc.tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.boolean()).chain(([size, asString]) =>
  fc.constantFrom(
    asString ? JSON.stringify({ text: "x".repeat(size) }) : `{"text":"t","extra":[${"0,".repeat(size)}0]}`,
    // Huge values where a plain object or an enum value belongs.
    JSON.stringify("x".repeat(size)),
    JSON.stringify({ text: "t", mode: "x".repeat(size) }),
  ),
);

/** The raw argument text of a call of `name`: valid, or broken in one of many ways. */
export function argumentsFor(name: string): fc.Arbitrary<string> {
  const valid = validArgsFor(name).map((args) => JSON.stringify(args));
  return fc.oneof(
    { weight: 8, arbitrary: valid },
    // Malformed and truncated JSON.
    { weight: 2, arbitrary: valid.chain((json) => fc.nat(json.length).map((end) => json.slice(0, end))) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", "   ", "{", "{}", "null", "[]", "42", '"text"', "{'a':1}", "\u0000"),
    },
    // Wrong types: any JSON at all.
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc.dictionary(modelText, fc.jsonValue({ maxDepth: 2 })).map((v) => JSON.stringify(v)),
    },
    // Unicode and control characters as a field's value.
    { weight: 1, arbitrary: modelText.map((value) => JSON.stringify({ text: value, title: value })) },
    { weight: 1, arbitrary: modelText },
    { weight: 1, arbitrary: huge },
    { weight: 1, arbitrary: deeplyNested },
  );
}

/** A call id; drawn from a small pool half of the time, so replies reuse ids. */
const callId = fc.oneof(fc.constantFrom("call_1", "call_1", "dup", ""), fc.uuid(), modelText);

const call: fc.Arbitrary<FuzzPart> = fc
  .tuple(callId, toolName)
  .chain(([id, name]) => argumentsFor(name).map((input): FuzzPart => ({ type: "call", id, name, input })));

const providerCall: fc.Arbitrary<FuzzPart> = fc
  .tuple(
    callId,
    fc.constantFrom("web_search", "code_interpreter"),
    argumentsFor("web_search"),
    fc.option(modelText),
  )
  .map(
    ([id, name, input, result]): FuzzPart =>
      result === null
        ? { type: "provider-call", id, name, input }
        : { type: "provider-call", id, name, input, result },
  );

const part: fc.Arbitrary<FuzzPart> = fc.oneof(
  { weight: 6, arbitrary: call },
  { weight: 2, arbitrary: modelText.map((text): FuzzPart => ({ type: "text", text })) },
  { weight: 1, arbitrary: modelText.map((text): FuzzPart => ({ type: "reasoning", text })) },
  { weight: 1, arbitrary: providerCall },
);

const usage = fc.option(fc.record({ inputTokens: fc.nat(5_000), outputTokens: fc.nat(2_000) }), { freq: 4 });

/** One reply: empty, text, calls mixed with text, or very many calls at once. */
export const reply: fc.Arbitrary<FuzzReply> = fc
  .tuple(
    fc.oneof(
      { weight: 10, arbitrary: fc.array(part, { maxLength: 6 }) },
      { weight: 1, arbitrary: fc.array(call, { minLength: 20, maxLength: 60 }) },
    ),
    usage,
  )
  .map(([parts, tokens]) => (tokens === null ? { parts } : { parts, usage: tokens }));

/** A whole conversation's worth of replies (the model answers plainly once they are spent). */
export const replies = fc.array(reply, { minLength: 1, maxLength: 8 });

/** How a case runs the loop. */
export const loopSettings = fc.record({
  maxIterations: fc.integer({ min: 1, max: 8 }),
  maxUnknownToolRetries: fc.integer({ min: 0, max: 4 }),
  parallelToolCalls: fc.boolean(),
  stream: fc.boolean(),
});

/** Cases per property: small in `npm test`, `FUZZ_RUNS` (10,000 in `npm run fuzz`) otherwise. */
export function fuzzRuns(inTestSuite: number): number {
  const fromEnvironment = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(fromEnvironment) && fromEnvironment > 0 ? fromEnvironment : inTestSuite;
}

/** A vitest timeout for `runs` cases: generous in `npm test` (the machine may be shared), none to speak of in `npm run fuzz`. */
export function fuzzTimeoutMs(runs: number, msPerCase: number): number {
  return process.env.FUZZ_RUNS ? 4 * 60 * 60 * 1000 : 20_000 + runs * msPerCase * 4;
}

/** Replies of a nested loop offering `names`: calls to them (or to anything) mixed with text; no token counts. */
export function nestedReplies(names: readonly string[]): fc.Arbitrary<FuzzReply[]> {
  const nestedCall = fc
    .tuple(
      callId,
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: toolName }),
    )
    .chain(([id, name]) => argumentsFor(name).map((input): FuzzPart => ({ type: "call", id, name, input })));
  const nestedPart = fc.oneof(
    { weight: 4, arbitrary: nestedCall },
    { weight: 1, arbitrary: modelText.map((text): FuzzPart => ({ type: "text", text })) },
  );
  return fc.array(
    fc.array(nestedPart, { maxLength: 4 }).map((parts): FuzzReply => ({ parts })),
    { maxLength: 6 },
  );
}
