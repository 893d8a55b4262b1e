import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `Tests: N passed, N failed, N skipped`, which CI systems that do
 * not know vitest's own summary can read. Modules that failed to load count as failed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    process.stdout.write(slowestModules(testModules));
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

const SLOWEST_SHOWN = 15;

function slowestModules(testModules: ReadonlyArray<TestModule>): string {
  const timed = testModules
    .map((module) => ({ file: module.relativeModuleId, seconds: module.diagnostic().duration / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_SHOWN);
  if (timed.length === 0) return '';
  const lines = timed.map(({ file, seconds }) => `  ${seconds.toFixed(1).padStart(7)} s  ${file}`);
  return `\nSlowest test files:\n${lines.join('\n')}\n`;
}
