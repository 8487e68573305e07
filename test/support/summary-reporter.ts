import type { Reporter, TestModule, TestSpecification } from "vitest/node";

/** How many finished test files between two progress lines. */
const PROGRESS_EVERY = 10;

/**
 * Prints `files N/M done` every {@link PROGRESS_EVERY} finished test files (a
 * long `npm test` shows how far it is), and one closing line,
 * `N passed, N failed, N skipped`, after the default reporter's summary, so CI
 * logs state the outcome in a runner-neutral form.
 */
export class SummaryReporter implements Reporter {
  private total = 0;
  private done = 0;

  constructor(private readonly write: (text: string) => void = (text) => process.stdout.write(text)) {}

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = new Set(specifications.map((specification) => specification.moduleId)).size;
    this.done = 0;
  }

  onTestModuleEnd(_module: TestModule): void {
    this.done++;
    if (this.done % PROGRESS_EVERY === 0 && this.done < this.total) {
      this.write(`files ${this.done}/${this.total} done\n`);
    }
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else if (state === "skipped") counts.skipped++;
      }
    }
    this.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
