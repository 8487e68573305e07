// What `embabel-ts list` shows of each built-in example, in order, apart from
// the examples themselves: listing them loads no agent (the CLI's `list` starts
// in well under 150 ms). Each example's `index.ts` takes its name, summary and
// sample input from here.

/** The name, one-line summary and sample input of a built-in example. */
export interface CatalogEntry {
  /** The name typed on the command line. */
  readonly name: string;
  /** One line for `embabel-ts list`. */
  readonly summary: string;
  /** The input used when the user gives none. */
  readonly sampleInput: string;
}

/** The built-in examples, in the order `embabel-ts list` shows them. */
export const EXAMPLE_CATALOG: readonly CatalogEntry[] = [
  {
    name: "star-news",
    summary: "Writes a horoscope piece: a 3-action GOAP plan with @llmTool tools",
    sampleInput: "Lynda, a Scorpio",
  },
  {
    name: "concert-planner",
    summary: "Plans a concert with an UnfoldingTool (venues) and a Subagent (PerformanceFinder)",
    sampleInput: "A Mozart evening in Vienna for 500 people",
  },
  {
    name: "research-brief",
    summary:
      "Writes a research brief: checks its budget, reads its blackboard, reports progress, messages you",
    sampleInput: "How does sleep affect memory?",
  },
  {
    name: "mcp-weather",
    summary: "Reports the weather with tools from an MCP server named in a config file",
    sampleInput: "What's the weather like in Lisbon?",
  },
  {
    name: "support-desk",
    summary: "Resolves a ticket with agentic tools: a PlaybookTool, a StateMachineTool and tool chaining",
    sampleInput:
      "Hi, this is ada@example.com. My telescope (order A-1001) arrived dented. Can I get my money back?",
  },
  {
    name: "release-notes",
    summary: "Writes release notes by following Agent Skills folders named in a config file",
    sampleInput:
      "Current version 2.3.1. Changes: feat: add an export button to every report; fix: stop the crash when a report has no rows; chore: update dependencies",
  },
  {
    name: "refund-desk",
    summary: "Refunds an order after a person approves the refund tool's call (human in the loop)",
    sampleInput: "My telescope (order A-1001) arrived dented. Please refund me.",
  },
  {
    name: "code-mode",
    summary: "Sums refunds over 20 orders with one program the LLM writes, run in a sandbox (code mode)",
    sampleInput: "What do orders 1 to 20 owe in refunds over $50?",
  },
];

/** The catalog entry of the example called `name`. */
export function catalogEntry(name: string): CatalogEntry {
  const entry = EXAMPLE_CATALOG.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`No example named '${name}' in examples/catalog.ts`);
  return entry;
}
