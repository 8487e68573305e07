// Tool search (UnfoldingTool.searchable) over a labelled catalogue of 2,054
// tools: the MCP reference servers' real tools plus synthetic SaaS services
// (bench/support/tool-catalogue.mjs), and 230 requests written the way users
// ask, each with its right tool (bench/support/tool-queries.mjs).
// Reports recall@1 and recall@5 for lexical (BM25) and hybrid (BM25 + vectors
// by reciprocal rank fusion, through the platform's embedding API with the
// deterministic HashEmbeddingModel), the first request's tool-definition bytes
// versus offering every tool flat, search latency and index build time at
// 10,000 tools, and whether the tool list only ever grew by appending (every
// earlier definition byte-identical, no duplicates) across every query run
// through the real tool loop with the scripted model.
// Recall is reported on a fixed dev half of the requests (the ranker's
// constants were tuned on it), the held-out half (never tuned on, but its
// misses were read while improving the ranker), all 230, and a fresh set of
// 193 requests written blind after that tuning (bench/support/tool-queries-fresh.mjs:
// its writer neither ran nor read the ranker). The recall target is judged on
// the fresh set, the only one nobody has looked at the ranker's answers for.
// Baseline, measured in the same run: plain BM25 over the same catalogue
// (bench/support/plain-bm25.mjs). Recall targets: on each of dev, held-out and
// fresh, our recall@5 beats plain BM25's by at least MIN_LIFT, and stays at or
// above the figures measured when the ranker was last changed (RECALL_FLOOR: a
// ranker change must not lose a request it found). Recall@5 >= 0.9 on the fresh
// set stays the open target: printed as OPEN with its reason while unmet (most
// fresh misses share no word with the right tool: a lexical ranker cannot find
// them; docs/internals/tool-search-fresh-misses.md), not as a failing row.
// Other targets: first-request bytes <= 1% of flat at
// 2,000 tools; < 5 ms per lexical query and index build < 1 s at 10,000
// tools; append-only in 100% of runs.
import {
  AgentPlatform,
  InputSchema,
  Param,
  runToolLoop,
  Tool,
  ToolResult,
  ToolSearchIndex,
  UnfoldingTool,
} from "../dist/src/index.js";
import { HashEmbeddingModel, ScriptedModel } from "../dist/src/testing/index.js";
import { plainBm25 } from "./support/plain-bm25.mjs";
import { poisonTools } from "./support/poisoner.mjs";
import { splitOf } from "./support/query-split.mjs";
import { REFERENCE_TOOLS, SERVICES, serverOf, syntheticTools } from "./support/tool-catalogue.mjs";
import { QUERIES } from "./support/tool-queries.mjs";
import { FRESH_QUERIES } from "./support/tool-queries-fresh.mjs";

const prompt = [{ role: "user", content: [{ type: "text", text: "Help me." }] }];
const results = [];

function toolOf([name, description, ...parameters]) {
  const schema = InputSchema.of(
    ...parameters.map((parameter) =>
      Param.string(parameter, parameter.replaceAll("_", " "), { required: false }),
    ),
  );
  // As an MCP tool group presents it: the server's name in the definition's metadata.
  return Tool.create(name, description, schema, () => ToolResult.text(`${name} ok`)).withDefinitionMetadata({
    mcpServer: serverOf(name),
  });
}

const rows = [...REFERENCE_TOOLS, ...syntheticTools()];
const catalogue = rows.map(toolOf);

/** recall@5 on dev, held-out and fresh when the ranker last changed (#37): a change must keep each (counts: 109/115, 95/115, 155/193). */
const RECALL_FLOOR = { dev: 109 / 115, "held-out": 95 / 115, fresh: 155 / 193 };
/** How much recall@5 our ranker must add to plain BM25's on each set (measured: +0.191, +0.130, +0.104). */
const MIN_LIFT = 0.05;
/** The open target on the fresh set. */
const FRESH_TARGET = 0.9;

const SETS = ["dev", "held-out", "all", "fresh"];
const LABELLED = [
  ...QUERIES.map((labelled) => [...labelled, false]),
  ...FRESH_QUERIES.map((labelled) => [...labelled, true]),
];

/** Recall@1 and recall@5 of `rank` over the labelled requests: on the dev split, the held-out split, all 230 and the fresh set. */
async function recall(rank) {
  const sets = Object.fromEntries(SETS.map((set) => [set, []]));
  for (const [query, expected, fresh] of LABELLED) {
    const names = await rank(query);
    const outcome = {
      query,
      expected,
      names,
      at1: names[0] === expected,
      at5: names.slice(0, 5).includes(expected),
    };
    if (fresh) sets.fresh.push(outcome);
    else {
      sets[splitOf(query)].push(outcome);
      sets.all.push(outcome);
    }
  }
  const figures = {};
  for (const [set, outcomes] of Object.entries(sets)) {
    figures[set] = {
      count: outcomes.length,
      at1: outcomes.filter((outcome) => outcome.at1).length / outcomes.length,
      at5: outcomes.filter((outcome) => outcome.at5).length / outcomes.length,
      misses: outcomes.filter((outcome) => !outcome.at5),
    };
  }
  return figures;
}

/** One line per set; SHOW_MISSES=<set> lists that set's requests missed at 5 (dev when set to anything else). */
function report(label, figures, note = "") {
  const line = SETS.map(
    (set) => `${set} (${figures[set].count}) ${figures[set].at1.toFixed(3)} / ${figures[set].at5.toFixed(3)}`,
  ).join("   ");
  console.log(`${label} recall@1 / recall@5:  ${line}${note}`);
  const show = process.env.SHOW_MISSES;
  if (!show) return;
  for (const miss of figures[SETS.includes(show) ? show : "dev"].misses) {
    console.log(`  miss: ${miss.query} -> ${miss.expected} (got ${miss.names.slice(0, 5).join(", ")})`);
  }
}

function target(name, pass, figure) {
  results.push({ name, pass });
  console.log(`${pass ? "PASS" : "FAIL"}  ${name}: ${figure}`);
}

console.log(
  `catalogue: ${catalogue.length} tools (${REFERENCE_TOOLS.length} from the MCP reference servers), ${QUERIES.length} labelled requests + ${FRESH_QUERIES.length} fresh`,
);

// --- recall, lexical ---
const lexicalSearch = UnfoldingTool.searchable("find_tools", "Find tools by describing a task", catalogue);
const lexical = await recall(async (query) =>
  lexicalSearch.index.search(query, 5).map((hit) => hit.tool.definition.name),
);
report("lexical", lexical);

// --- recall, hybrid through the platform's embedding API (OperationContext.embed's path) ---
const embeddingModel = new HashEmbeddingModel({ dimensions: 256 });
const platform = AgentPlatform.create({ models: {}, embeddingModels: { default: embeddingModel } });
const hybridSearch = UnfoldingTool.searchable("find_tools", "Find tools by describing a task", catalogue);
let hybrid;
const hybridProcess = await platform.runInProcess(async () => {
  hybrid = await recall(async (query) => {
    const result = await hybridSearch.call(JSON.stringify({ query, limit: 5 }));
    return [...result.content.matchAll(/^- ([^:]+):/gm)].map((match) => match[1]);
  });
});
if (hybridProcess.status !== "completed")
  throw new Error(`hybrid run ended ${hybridProcess.status}: ${hybridProcess.failure?.message}`);
const embedCalls = embeddingModel.requests.length;
report(
  "hybrid ",
  hybrid,
  `  (HashEmbeddingModel, 256 dims; ${embedCalls} embedding calls: catalogue once + one per query)`,
);
// --- recall, plain BM25 over the same catalogue (the baseline) ---
const plain = plainBm25(rows);
const baseline = await recall(async (query) => plain.search(query, 5));
report("plain  ", baseline, "  (baseline: textbook BM25, one field, no stemming)");
// Judged per set against the baseline of this run and against the floor; the ranker was tuned on
// dev (bench/tool-search-sweep.mjs) and its held-out misses were read, so only the fresh figure says
// what an unseen request gets.
const JUDGED = ["dev", "held-out", "fresh"];
const lifts = JUDGED.map((set) => `${set} +${(lexical[set].at5 - baseline[set].at5).toFixed(3)}`).join(", ");
target(
  `recall@5 lexical >= plain BM25 + ${MIN_LIFT} on dev, held-out and fresh`,
  JUDGED.every((set) => lexical[set].at5 >= baseline[set].at5 + MIN_LIFT - 1e-9),
  `${lifts} (plain BM25: ${JUDGED.map((set) => `${set} ${baseline[set].at5.toFixed(3)}`).join(", ")})`,
);
target(
  "recall@5 lexical no lower than when the ranker last changed",
  JUDGED.every((set) => lexical[set].at5 >= RECALL_FLOOR[set] - 1e-9),
  JUDGED.map((set) => `${set} ${lexical[set].at5.toFixed(3)} (floor ${RECALL_FLOOR[set].toFixed(3)})`).join(
    ", ",
  ),
);
const freshMet = lexical.fresh.at5 >= FRESH_TARGET;
console.log(
  `${freshMet ? "MET " : "OPEN"}  recall@5 lexical >= ${FRESH_TARGET} on the fresh requests: ${lexical.fresh.at5.toFixed(3)} ` +
    `(x${(lexical.fresh.at5 / baseline.fresh.at5).toFixed(2)} plain BM25's ${baseline.fresh.at5.toFixed(3)})` +
    (freshMet
      ? ""
      : `; ${lexical.fresh.misses.length} of ${lexical.fresh.count} missed, most sharing no word with the right tool: what an embedding model is for (docs/internals/tool-search-fresh-misses.md)`),
);
console.log(
  `info  hybrid recall@5 vs lexical: ${hybrid.all.at5.toFixed(3)} vs ${lexical.all.at5.toFixed(3)} (a hash embedding carries no meaning; a real model is what hybrid is for)`,
);
target(
  "catalogue embedded once (cached by content hash)",
  embedCalls === LABELLED.length + 1,
  `${embedCalls} calls for ${LABELLED.length} queries`,
);

// --- poisoning (security review N14): one server of 40 small tools of the requests' commonest words ---
const requests = LABELLED.map(([query]) => query);
const poison = poisonTools(requests).map(([name, description]) =>
  Tool.create(name, description, InputSchema.of(), () => ToolResult.text("ok")).withDefinitionMetadata({
    mcpServer: "helper",
  }),
);
function poisoning(index) {
  let inTop5 = 0;
  let most = 0;
  for (const query of requests) {
    const count = index
      .search(query, 5)
      .filter((hit) => hit.tool.definition.metadata.mcpServer === "helper").length;
    if (count > 0) inTop5 += 1;
    most = Math.max(most, count);
  }
  return { inTop5, most };
}
const poisonedUncapped = poisoning(ToolSearchIndex.of([...catalogue, ...poison], { maxServerShare: 1 }));
const poisonedCapped = poisoning(ToolSearchIndex.of([...catalogue, ...poison]));
console.log(
  `poisoner in the top 5 of ${requests.length} requests: ${poisonedUncapped.inTop5} uncapped (up to ${poisonedUncapped.most} of 5), ${poisonedCapped.inTop5} capped (up to ${poisonedCapped.most} of 5)`,
);
target("a poisoning server fills at most 2 of 5", poisonedCapped.most <= 2, `${poisonedCapped.most} of 5`);

// --- first-request bytes ---
async function firstRequestBytes(tools) {
  const model = ScriptedModel.of(ScriptedModel.text("ok"));
  await runToolLoop({ model, prompt, tools });
  return JSON.stringify(model.requests[0].tools).length;
}
const flatBytes = await firstRequestBytes(catalogue);
const searchBytes = await firstRequestBytes([lexicalSearch]);
const share = searchBytes / flatBytes;
console.log(`first request: flat ${flatBytes} bytes, searchable ${searchBytes} bytes`);
target("first-request bytes <= 1% of flat", share <= 0.01, `${(share * 100).toFixed(3)}%`);

// --- append-only through the loop, every query ---
function onlyAppends(requests) {
  return requests.every((request, index) => {
    const next = requests[index + 1];
    if (!next) return true;
    const same = request.tools.every(
      (tool, position) => JSON.stringify(tool) === JSON.stringify(next.tools[position]),
    );
    return same && new Set(next.toolNames).size === next.toolNames.length;
  });
}
let appendOnly = 0;
for (const [query, expected] of LABELLED) {
  const model = ScriptedModel.of(
    ScriptedModel.toolCall("find_tools", { query }),
    ScriptedModel.toolCall(expected, {}),
    ScriptedModel.toolCall("find_tools", { query: `${query} again`, limit: 10 }),
    ScriptedModel.text("done"),
  );
  await runToolLoop({ model, prompt, tools: [lexicalSearch] });
  if (onlyAppends(model.requests)) appendOnly += 1;
}
target(
  "append-only in 100% of runs",
  appendOnly === LABELLED.length,
  `${appendOnly}/${LABELLED.length} runs`,
);

// --- latency at 10,000 tools ---
// Each figure against a baseline of the same run, in alternating rounds (which side goes first flips
// every round), judged on the median of the rounds' ratios: the per-server cap against the same index
// without it (maxServerShare: 1); search and index build against plain BM25 over the same 10,000 tools.
const bigRows = [...rows];
for (let copy = 2; bigRows.length < 10_000; copy += 1) {
  for (const row of syntheticTools(SERVICES, `_eu${copy}`, ` (EU region ${copy})`)) {
    if (bigRows.length < 10_000) bigRows.push(row);
  }
}
const big = bigRows.map(toolOf);
const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
function timed(work) {
  const start = performance.now();
  const value = work();
  return [performance.now() - start, value];
}
/** Median over `rounds` of (ours / baseline), the order flipping each round; also the medians of each side. */
function alternating(rounds, ours, baseline) {
  const ratios = [];
  const oursMs = [];
  const baselineMs = [];
  for (let round = 0; round < rounds; round += 1) {
    const [first, second] = round % 2 === 0 ? [ours, baseline] : [baseline, ours];
    const [firstMs] = timed(first);
    const [secondMs] = timed(second);
    const [o, b] = round % 2 === 0 ? [firstMs, secondMs] : [secondMs, firstMs];
    oursMs.push(o);
    baselineMs.push(b);
    ratios.push(o / b);
  }
  return { ratio: median(ratios), oursMs: median(oursMs), baselineMs: median(baselineMs) };
}
const [buildMs, bigIndex] = timed(() => ToolSearchIndex.of(big));
const uncappedIndex = ToolSearchIndex.of(big, { maxServerShare: 1 });
const plainBig = plainBm25(bigRows);
const allQueries = (index) => () => {
  for (const [query] of QUERIES) index.search(query, 5);
};
for (const index of [bigIndex, uncappedIndex, plainBig]) allQueries(index)(); // warm up
const cap = alternating(9, allQueries(bigIndex), allQueries(uncappedIndex));
const search = alternating(9, allQueries(bigIndex), allQueries(plainBig));
const build = alternating(
  5,
  () => ToolSearchIndex.of(big),
  () => plainBm25(bigRows),
);
const perQueryMs = cap.oursMs / QUERIES.length;
console.log(
  `at ${big.length} tools: index build ${buildMs.toFixed(1)} ms (plain BM25 ${build.baselineMs.toFixed(1)} ms), lexical search ${(perQueryMs * 1000).toFixed(0)} µs per query (${((cap.baselineMs / QUERIES.length) * 1000).toFixed(0)} µs without the per-server cap, ${((search.baselineMs / QUERIES.length) * 1000).toFixed(0)} µs plain BM25)`,
);
target(
  "lexical search <= 0.5x plain BM25's over the same 10,000 tools",
  search.ratio <= 0.5,
  `${search.ratio.toFixed(2)}x`,
);
target("per-server cap costs < 1.5x the uncapped search", cap.ratio < 1.5, `${cap.ratio.toFixed(2)}x`);
target("index build <= 5x plain BM25's at 10,000 tools", build.ratio <= 5, `${build.ratio.toFixed(2)}x`);

await platform.close();
const failed = results.filter((result) => !result.pass).length;
if (failed > 0) {
  console.error(`FAIL  tool search: ${failed} target(s) missed`);
  process.exitCode = 1;
} else console.log("PASS  tool search");
