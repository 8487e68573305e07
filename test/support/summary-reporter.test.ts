import { describe, expect, it } from "vitest";
import type { TestModule, TestSpecification } from "vitest/node";
import { SummaryReporter } from "./summary-reporter.js";

function moduleWith(...states: string[]): TestModule {
  const tests = states.map((state) => ({ result: () => ({ state }) }));
  return { children: { allTests: () => tests } } as unknown as TestModule;
}

describe("SummaryReporter", () => {
  it("says how many test files are done every ten, then the totals", () => {
    const lines: string[] = [];
    const reporter = new SummaryReporter((text) => lines.push(text));
    // 25 files; one is listed twice (as by two projects) and counts once.
    const specifications = Array.from({ length: 25 }, (_, index) => ({ moduleId: `/t/${index}.test.ts` }));
    reporter.onTestRunStart([
      ...specifications,
      { moduleId: "/t/0.test.ts" },
    ] as unknown as TestSpecification[]);
    const modules = specifications.map((_, index) =>
      moduleWith(index === 3 ? "failed" : "passed", "skipped"),
    );
    for (const module of modules) reporter.onTestModuleEnd(module);
    reporter.onTestRunEnd(modules);
    expect(lines).toEqual([
      "files 10/25 done\n",
      "files 20/25 done\n",
      "\n24 passed, 1 failed, 25 skipped\n",
    ]);
  });
});
