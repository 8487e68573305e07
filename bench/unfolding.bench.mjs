// A 1,000-tool catalogue, flat versus organised as nested UnfoldingTools
// (10 area facades × 10 group facades × 10 tools), driven through the real
// tool loop with the scripted model. Measures the bytes of tool definitions
// the loop sends in the first request, the calls needed to reach each of the
// 1,000 tools, and checks that unfolding only appends (every earlier
// definition byte-identical, so provider prompt caches stay valid).
// Targets: first-request bytes <= 2% of flat; every leaf in <= 3 calls.
import { InputSchema, Param, runToolLoop, Tool, ToolResult, UnfoldingTool } from "../dist/src/index.js";
import { ScriptedModel } from "../dist/src/testing/index.js";

const AREAS = 10;
const GROUPS = 10;
const TOOLS = 10;
const VERBS = [
  "search",
  "get",
  "create",
  "update",
  "delete",
  "list",
  "export",
  "import",
  "archive",
  "restore",
];
const prompt = [{ role: "user", content: [{ type: "text", text: "Do the thing." }] }];

const areaName = (a) => `area_${a}`;
const groupName = (a, g) => `area_${a}_group_${g}`;
const leafName = (a, g, t) => `a${a}_g${g}_${VERBS[t]}`;

function leaf(a, g, t) {
  const name = leafName(a, g, t);
  return Tool.create(
    name,
    `${VERBS[t]} records of group ${g} in business area ${a}; returns matching records as JSON`,
    InputSchema.of(
      Param.string("id", "Identifier of the record or search query"),
      Param.integer("limit", "Maximum number of records to return", { required: false }),
      Param.string("format", "Output format", { required: false, enumValues: ["json", "csv"] }),
    ),
    () => ToolResult.text(`${name} ok`),
  );
}

const leaves = [];
const areas = [];
for (let a = 0; a < AREAS; a += 1) {
  const groups = [];
  for (let g = 0; g < GROUPS; g += 1) {
    const tools = [];
    for (let t = 0; t < TOOLS; t += 1) {
      const tool = leaf(a, g, t);
      tools.push(tool);
      leaves.push({ a, g, t, name: tool.definition.name, tool });
    }
    groups.push(
      UnfoldingTool.of(
        groupName(a, g),
        `Group ${g} of area ${a}: ${VERBS.join(", ")}. Invoke to see its tools.`,
        tools,
      ),
    );
  }
  areas.push(
    UnfoldingTool.of(areaName(a), `Business area ${a}. Invoke to see its ${GROUPS} groups.`, groups),
  );
}
const flatTools = leaves.map((entry) => entry.tool);

const bytesOf = (request) => Buffer.byteLength(JSON.stringify(request.tools));

/** True when each request's definitions reappear byte-identical at the same positions in the next. */
function onlyAppends(requests) {
  for (let index = 1; index < requests.length; index += 1) {
    const before = requests[index - 1].tools;
    const after = requests[index].tools;
    if (after.length < before.length) return false;
    for (let position = 0; position < before.length; position += 1) {
      if (JSON.stringify(before[position]) !== JSON.stringify(after[position])) return false;
    }
  }
  return true;
}

/** Runs one loop following `calls`, then answering; returns the requests and the leaf's answer. */
async function reach(tools, calls) {
  const model = ScriptedModel.of(
    ...calls.map(([name, args]) => ScriptedModel.toolCall(name, args)),
    ScriptedModel.text("done"),
  );
  const result = await runToolLoop({ model, prompt, tools });
  const last = model.requests.at(-1);
  return { requests: model.requests, answer: last.toolResults[0]?.output.value, result };
}

const started = performance.now();
const flat = await reach(flatTools, [[leaves[0].name, { id: "x" }]]);
const flatBytes = bytesOf(flat.requests[0]);

let nestedFirstBytes = 0;
let maxCalls = 0;
let maxShortcutCalls = 0;
let maxRequestBytes = 0;
let appendOnly = 0;
let reached = 0;
let reachedByShortcut = 0;
for (const { a, g, name } of leaves) {
  const calls = [
    [areaName(a), {}],
    [groupName(a, g), {}],
    [name, { id: "x" }],
  ];
  const run = await reach(areas, calls);
  nestedFirstBytes = Math.max(nestedFirstBytes, bytesOf(run.requests[0]));
  for (const request of run.requests) maxRequestBytes = Math.max(maxRequestBytes, bytesOf(request));
  if (run.answer === `${name} ok`) reached += 1;
  if (onlyAppends(run.requests)) appendOnly += 1;
  maxCalls = Math.max(maxCalls, calls.length);

  // Shortcut dispatch: the area facade called with the group's name unfolds both levels at once.
  const shortcut = [
    [areaName(a), { [groupName(a, g)]: {} }],
    [name, { id: "x" }],
  ];
  const quick = await reach(areas, shortcut);
  if (quick.answer === `${name} ok` && onlyAppends(quick.requests)) reachedByShortcut += 1;
  maxShortcutCalls = Math.max(maxShortcutCalls, shortcut.length);
}
const elapsedMs = performance.now() - started;

const ratio = nestedFirstBytes / flatBytes;
const n = (value) => value.toLocaleString("en-US");
const pct = (value) => `${(value * 100).toFixed(2)}%`;
const rows = [
  ["", "flat", `nested ${AREAS}x${GROUPS}x${TOOLS}`, "nested / flat"],
  ["tool definitions, first request (bytes)", n(flatBytes), n(nestedFirstBytes), pct(ratio)],
  ["tools offered in the first request", flat.requests[0].tools.length, AREAS, pct(AREAS / flatTools.length)],
  ["largest request of a run (bytes)", n(flatBytes), n(maxRequestBytes), pct(maxRequestBytes / flatBytes)],
  ["calls to reach a leaf (max)", 1, maxCalls, ""],
  ["  with shortcut dispatch (max)", 1, maxShortcutCalls, ""],
  ["leaves reached", `1000/1000`, `${reached}/${leaves.length}`, ""],
  ["  with shortcut dispatch", "", `${reachedByShortcut}/${leaves.length}`, ""],
  ["runs where unfolding only appended", "", `${appendOnly}/${leaves.length}`, ""],
];
const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
for (const row of rows) {
  console.log(row.map((cell, column) => String(cell).padEnd(widths[column])).join("  "));
}
console.log(`(${leaves.length * 2} nested loop runs in ${elapsedMs.toFixed(0)} ms)`);

const failures = [];
if (ratio > 0.02) failures.push(`first-request bytes are ${pct(ratio)} of flat (target <= 2%)`);
if (maxCalls > 3) failures.push(`a leaf needed ${maxCalls} calls (target <= 3)`);
if (reached !== leaves.length) failures.push(`only ${reached}/${leaves.length} leaves reached`);
if (reachedByShortcut !== leaves.length)
  failures.push(`only ${reachedByShortcut} leaves reached by shortcut`);
if (appendOnly !== leaves.length)
  failures.push(`unfolding changed earlier definitions in ${leaves.length - appendOnly} runs`);
if (failures.length > 0) {
  console.error(`FAIL: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("PASS: first-request bytes <= 2% of flat, every leaf in <= 3 calls, unfolding only appends");
