// The parameter sweep behind the lexical tool ranker's constants
// (src/progressive/tool-search-parameters.ts): BM25F's k1 and each field's
// weight and length normalisation b, and the shares of query expansions, one
// at a time from the current defaults (coordinate ascent), judged by recall@5
// then recall@1 on the DEV half of the labelled requests only
// (bench/support/query-split.mjs). The held-out half is printed once, for
// the defaults and the winner, and never steers the choice.
// Usage: npm run build && node bench/tool-search-sweep.mjs
import { InputSchema, Param, Tool, ToolResult, ToolSearchIndex } from "../dist/src/index.js";
import { DEFAULT_TOOL_SEARCH_PARAMETERS } from "../dist/src/progressive/tool-search-parameters.js";
import { splitOf } from "./support/query-split.mjs";
import { REFERENCE_TOOLS, serverOf, syntheticTools } from "./support/tool-catalogue.mjs";
import { QUERIES } from "./support/tool-queries.mjs";

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

const catalogue = [...REFERENCE_TOOLS, ...syntheticTools()].map(toolOf);
const dev = QUERIES.filter(([query]) => splitOf(query) === "dev");
const heldOut = QUERIES.filter(([query]) => splitOf(query) === "held-out");

function recall(parameters, queries) {
  const index = ToolSearchIndex.withParameters(catalogue, parameters);
  let at1 = 0;
  let at5 = 0;
  for (const [query, expected] of queries) {
    const names = index.search(query, 5).map((hit) => hit.tool.definition.name);
    if (names[0] === expected) at1 += 1;
    if (names.includes(expected)) at5 += 1;
  }
  return { at1: at1 / queries.length, at5: at5 / queries.length };
}

const better = (a, b) => a.at5 > b.at5 || (a.at5 === b.at5 && a.at1 > b.at1);
const format = ({ at1, at5 }) => `${at1.toFixed(3)} / ${at5.toFixed(3)}`;

/** Each knob and the values tried for it. */
const FIELDS = ["name", "description", "parameterNames", "parameterDescriptions", "acronyms", "server"];
const KNOBS = [
  ["k1", [0.5, 0.8, 1.2, 1.6, 2.0, 3.0]],
  ...FIELDS.flatMap((field) => [
    [`${field}.weight`, [0, 0.25, 0.5, 1, 1.5, 2, 3, 4, 6]],
    [`${field}.b`, [0, 0.25, 0.5, 0.75, 1]],
  ]),
  ["prefixShare", [0, 0.25, 0.5, 0.75]],
  ["abbreviationShare", [0, 0.25, 0.5, 0.75]],
  ["relatedShare", [0, 0.3, 0.45, 0.6, 0.8, 1]],
  ["surfaceShare", [0, 0.15, 0.3, 0.5, 0.75, 1]],
  ["namespaceBoost", [0, 0.25, 0.5, 1, 2, 4]],
  ["literalShare", [0, 0.25, 0.5, 0.75, 1]],
  ["valueShare", [0, 0.25, 0.5, 0.75, 1]],
  ["destructivePenalty", [0, 0.05, 0.1, 0.2, 0.3, 0.5]],
  ["questionShare", [0, 0.15, 0.3, 0.5, 1]],
];

function withKnob(parameters, knob, value) {
  const [key, sub] = knob.split(".");
  return sub === undefined
    ? { ...parameters, [key]: value }
    : { ...parameters, [key]: { ...parameters[key], [sub]: value } };
}

let best = DEFAULT_TOOL_SEARCH_PARAMETERS;
let bestDev = recall(best, dev);
console.log(
  `defaults: dev ${format(bestDev)}  held-out ${format(recall(best, heldOut))}  (recall@1 / recall@5)`,
);
for (let round = 1; round <= 3; round += 1) {
  let changed = false;
  for (const [knob, values] of KNOBS) {
    for (const value of values) {
      const candidate = withKnob(best, knob, value);
      const figures = recall(candidate, dev);
      if (better(figures, bestDev)) {
        best = candidate;
        bestDev = figures;
        changed = true;
        console.log(`round ${round}: ${knob} = ${value}  dev ${format(figures)}`);
      }
    }
  }
  if (!changed) break;
}
console.log(`best: dev ${format(bestDev)}  held-out ${format(recall(best, heldOut))}`);
console.log(JSON.stringify(best));
