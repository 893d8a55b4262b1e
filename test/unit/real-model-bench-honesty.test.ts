import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RealModelResults } from '../../eval/bench/real-model/results-file';
import { rowOf } from '../../eval/bench/real-model/row';
import { renderRealModelTable } from '../../eval/bench/real-model/table';
import type { GroupReport } from '../../src/report/report-types';
import { projectRoot } from '../../src/project-root';

const ci = { estimate: 0.5, lower: 0.2, upper: 0.8, confidence: 0.95, resamples: 1000 };
/** A Factcheck-Bench group: 30 verified, one NEI gold label off its binary scheme, so 29 scored. */
const group = {
  key: { dataset: 'factcheck_bench', method: 'rag' },
  scheme: 'binary',
  counts: { claims: 30, verdicts: 30, failed: 0, scored: 29, unscored: 1, invalid: 0 },
  accuracy: ci,
  macroF1: ci,
  usage: { total: { llmCalls: 30, toolCalls: 30, totalTokens: 30000 } },
  latencyMs: { mean: 8000 },
} as unknown as GroupReport;

// Issue 37 (11): the "claims" column showed the sampled count (30, 10, 10), not the scored one (29, 9, 9).
describe('bench:real-model counts the claims it scored (issue 37, defect 11)', () => {
  it('a row is the scored claims out of the sampled ones', () => {
    const row = rowOf(group, []);
    expect(row).toMatchObject({ claims: 29, sampled: 30 });
    const table = renderRealModelTable('M', [row], [], [{ method: 'rag', sent: '0', paper: '1' }]);
    expect(table).toContain('| factcheck_bench | rag | 29 (of 30) |');
    expect(table).toContain('claims scored (of sampled)');
    expect(table).toContain('Temperature sent: rag 0 (papers: 1).');
  });

  it('the committed results show Factcheck-Bench as 29, 9 and 9 scored claims, and every run its temperature', () => {
    const file = path.join(projectRoot(), 'eval', 'bench', 'results', 'real-model-qwen2.5-coder-0.5b.json');
    const results = JSON.parse(fs.readFileSync(file, 'utf8')) as RealModelResults;
    const factcheck = results.rows.filter((row) => row.dataset === 'factcheck_bench').map((row) => [row.method, row.claims, row.sampled]);
    expect(factcheck).toEqual([['rag', 29, 30], ['emulate', 9, 10], ['fire', 9, 10]]);
    for (const row of results.rows) expect(row.claims, `${row.dataset} ${row.method}`).toBeLessThanOrEqual(row.sampled!);
    for (const run of results.runs) expect(run.temperature, run.method).toMatch(/^0 /);
  });

  // The README called llm-only "the no-retrieval baseline of all four papers" (only Tool-MAD and ToE have one)
  // and read llm-only's 10-claim rows as "level with or above" rag's 30 other claims.
  it("the README's sentences: llm-only is the baseline of Tool-MAD and ToE only, and rows of different samples are not compared", () => {
    const readme = fs.readFileSync(path.join(projectRoot(), 'eval', 'bench', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).not.toMatch(/baseline of all four papers/);
    expect(readme).toMatch(/of the four papers only Tool-MAD, its Vanilla agent, and ToE, its Direct baseline, have one/);
    expect(readme).not.toMatch(/level with or above rag/);
    expect(readme).toMatch(/rows are not a comparison of the methods \(different samples/);
  });
});
