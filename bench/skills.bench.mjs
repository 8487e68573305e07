// 100 generated Agent Skills folders (front matter + a body of 4-8 KB, with
// references/), offered two ways to the real tool loop with the scripted
// model: as one `skills` facade (Skills.fromDirectory(dir).asTool()) versus
// every skill's name, description and body inlined in the system prompt.
// Measures the bytes of the first request (messages + tool definitions),
// the bytes after activating one skill, the time to load the folder (front
// matter only), and checks that activating only appends.
// Target: facade first-request bytes <= 5% of inlined.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToolLoop, Skills } from "../dist/src/index.js";
import { ScriptedModel } from "../dist/src/testing/index.js";

const SKILLS = 100;
const SUBJECTS = [
  "invoices",
  "contracts",
  "incident reports",
  "release notes",
  "survey results",
  "API specs",
];
const ACTIONS = ["review", "summarise", "convert", "audit", "draft", "reconcile"];
const FORMATS = ["PDF", "CSV", "Markdown", "spreadsheet", "slide deck", "JSON"];

/** A deterministic pseudo-random number in [0, 1) from a seed. */
const random = (seed) => {
  const x = Math.sin(seed * 9301 + 49297) * 233280;
  return x - Math.floor(x);
};

function skillText(index) {
  const subject = SUBJECTS[index % SUBJECTS.length];
  const action = ACTIONS[Math.floor(index / SUBJECTS.length) % ACTIONS.length];
  const format = FORMATS[(index * 7) % FORMATS.length];
  const name = `${action}-${subject.replaceAll(" ", "-").toLowerCase()}-${index}`;
  const description =
    `${action[0].toUpperCase()}${action.slice(1)}s ${subject} delivered as ${format} files: checks them against the team's rules, ` +
    `flags what is missing or inconsistent, and produces a short report. Use when the user shares ${subject} and asks to ${action} them.`;
  const sections = [];
  const target = 4000 + Math.floor(random(index) * 4000);
  let step = 1;
  while (sections.join("\n").length < target) {
    sections.push(
      `## Step ${step}: ${ACTIONS[step % ACTIONS.length]} the ${subject}\n\n` +
        `Open each ${format} file and list every ${subject.replace(/s$/, "")} it contains. For each one, compare the fields ` +
        `with references/rules-${step}.md, note every difference with its location, and keep the original values. ` +
        `When a value is ambiguous, ask the user instead of guessing; when a rule does not apply, say why in one line.\n\n` +
        `- Record the file name, the item and the rule for each finding.\n- Never change the source files.\n- Keep the report under one page.\n`,
    );
    step += 1;
  }
  const body = `# ${name}\n\nThis skill helps ${action} ${subject}.\n\n${sections.join("\n")}`;
  return { name, description, body };
}

const root = mkdtempSync(join(tmpdir(), "embabel-skills-bench-"));
const generated = [];
try {
  for (let index = 0; index < SKILLS; index += 1) {
    const skill = skillText(index);
    generated.push(skill);
    const folder = join(root, skill.name);
    mkdirSync(join(folder, "references"), { recursive: true });
    writeFileSync(
      join(folder, "SKILL.md"),
      `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\n---\n\n${skill.body}\n`,
    );
    writeFileSync(
      join(folder, "references", "rules-1.md"),
      "# Rules\n\nEvery item has an owner and a date.\n",
    );
  }

  const loadStarted = performance.now();
  const skills = await Skills.fromDirectory(root);
  const loadMs = performance.now() - loadStarted;

  const userPrompt = [
    { role: "user", content: [{ type: "text", text: "Please audit the attached invoices." }] },
  ];
  const requestBytes = (request) =>
    Buffer.byteLength(JSON.stringify({ prompt: request.prompt, tools: request.tools }));

  // Facade: one tool; the model activates one skill, then answers.
  const chosen = generated[42].name;
  const facadeModel = ScriptedModel.of(
    ScriptedModel.toolCall("skills", { skill: chosen }),
    ScriptedModel.text("done"),
  );
  await runToolLoop({ model: facadeModel, prompt: userPrompt, tools: [skills.asTool()] });
  const facadeFirst = requestBytes(facadeModel.requests[0]);
  const facadeAfter = requestBytes(facadeModel.requests[1]);
  const before = facadeModel.requests[0];
  const after = facadeModel.requests[1];
  const appendOnly =
    JSON.stringify(after.tools.slice(0, before.tools.length)) === JSON.stringify(before.tools) &&
    JSON.stringify(after.prompt.slice(0, before.prompt.length)) === JSON.stringify(before.prompt);
  const activationAnswered = String(after.toolResults[0]?.output.value ?? "").startsWith(`# ${chosen}`);

  // Inlined: every skill in the system prompt, no tools.
  const system = [
    "You have these skills. Follow the one that matches the task.",
    ...generated.map((skill) => `\n## Skill: ${skill.name}\n${skill.description}\n\n${skill.body}`),
  ].join("\n");
  const inlinedModel = ScriptedModel.of(ScriptedModel.text("done"));
  await runToolLoop({
    model: inlinedModel,
    prompt: [{ role: "system", content: system }, ...userPrompt],
    tools: [],
  });
  const inlinedFirst = requestBytes(inlinedModel.requests[0]);

  const ratio = facadeFirst / inlinedFirst;
  const n = (value) => value.toLocaleString("en-US");
  const pct = (value) => `${(value * 100).toFixed(2)}%`;
  const bodies = generated.map((skill) => Buffer.byteLength(skill.body));
  const rows = [
    ["", "inlined", "facade", "facade / inlined"],
    ["first request (bytes: messages + tool definitions)", n(inlinedFirst), n(facadeFirst), pct(ratio)],
    ["after activating one skill (bytes)", "", n(facadeAfter), pct(facadeAfter / inlinedFirst)],
    ["skills", SKILLS, SKILLS, ""],
    ["body size (bytes, min / max)", `${n(Math.min(...bodies))} / ${n(Math.max(...bodies))}`, "", ""],
    ["activation only appended", "", appendOnly ? "yes" : "NO", ""],
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  for (const row of rows)
    console.log(row.map((cell, column) => String(cell).padEnd(widths[column])).join("  "));
  console.log(`(loaded ${SKILLS} skills, front matter only, in ${loadMs.toFixed(0)} ms)`);

  const failures = [];
  if (ratio > 0.05) failures.push(`first-request bytes are ${pct(ratio)} of inlined (target <= 5%)`);
  if (!appendOnly) failures.push("activating a skill changed what earlier requests sent");
  if (!activationAnswered) failures.push("the activation did not answer with the skill's body");
  if (failures.length > 0) {
    console.error(`FAIL: ${failures.join("; ")}`);
    process.exitCode = 1;
  } else {
    console.log("PASS: facade first-request bytes <= 5% of inlined, activation only appends");
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
