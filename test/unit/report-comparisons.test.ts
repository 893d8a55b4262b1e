import { describe, expect, it } from 'vitest';
import { buildReport, compareWithRun, renderComparisonsText, renderHtml, renderMarkdown, type RunReport } from '../../src/report';
import type { RunRecords, RunVerdict } from '../../src/runs/run-records';
import { goldLabels, manifest, runA, runB, verdict } from '../support/report-fixtures';

const options = { generatedAt: '2026-01-01T00:00:00.000Z', bootstrap: { resamples: 200, seed: 1 } };

function of(method: string, claimId: string, label: string, overrides: Partial<RunVerdict> = {}): RunVerdict {
  return verdict(claimId, label, { method, workflowId: `verify/r/${claimId}/${method}/m1`, ...overrides });
}

/** hover (binary): gold c1 S, c2 S, c3 N, c4 N, c6 S, c7 S. */
function run(methods: string[], verdicts: RunVerdict[], failures: RunRecords['failures'] = []): RunReport {
  return buildReport({ manifest: manifest('r', { config: { ...manifest('r').config, methods } }), verdicts, claims: [], failures, warnings: [] }, goldLabels(), options);
}

describe('paired comparisons in the report', () => {
  // rag: c1 ✓ c2 ✗ c3 ✓ c4 ✓ c6 ✓ c7 ✓; fire: c1 ✓ c2 ✓ c3 ✗ c4 ✗ c6 failed ✗ c7 ✓.
  const report = run(
    ['rag', 'fire'],
    [
      of('rag', 'c1', 'SUPPORTED'), of('rag', 'c2', 'REFUTED'), of('rag', 'c3', 'REFUTED'), of('rag', 'c4', 'REFUTED'), of('rag', 'c6', 'SUPPORTED'), of('rag', 'c7', 'SUPPORTED'),
      of('fire', 'c1', 'SUPPORTED'), of('fire', 'c2', 'SUPPORTED'), of('fire', 'c3', 'SUPPORTED'), of('fire', 'c4', 'SUPPORTED'), of('fire', 'c7', 'SUPPORTED'),
    ],
    [{ runId: 'r', workflowId: 'verify/r/c6/fire/m1', claimId: 'c6', dataset: 'hover', method: 'fire', model: 'm1', reason: 'LlmOutputInvalid' }],
  );

  it('compares the two methods on the claims both scored, with McNemar and a paired interval', () => {
    expect(report.comparisons.comparisons).toHaveLength(1);
    const [c] = report.comparisons.comparisons;
    expect(c).toMatchObject({ dataset: 'hover', varies: 'method', a: { method: 'rag', model: 'm1' }, b: { method: 'fire', model: 'm1' }, claims: 6, onlyInA: 0, onlyInB: 0, note: null });
    expect(c!.accuracyA).toBeCloseTo(5 / 6, 12);
    expect(c!.accuracyB).toBeCloseTo(3 / 6, 12);
    // Only rag right: c3, c4, c6; only fire right: c2. p = 2 · (1 + 4) / 16.
    expect(c!.mcnemar).toEqual({ onlyA: 3, onlyB: 1, pValue: 0.625 });
    expect(c!.difference!.estimate).toBeCloseTo(-2 / 6, 12);
    expect(c!.difference!.lower).toBeLessThan(c!.difference!.estimate);
    expect(c!.disagreements.map((d) => [d.claimId, d.discordant])).toEqual([['c2', true], ['c3', true], ['c4', true], ['c6', true]]);
    const c6 = c!.disagreements.find((d) => d.claimId === 'c6')!;
    expect(c6).toMatchObject({ gold: 'SUPPORTED', a: { predicted: ['SUPPORTED'], workflowIds: ['verify/r/c6/rag/m1'] }, b: { predicted: ['failed'], workflowIds: ['verify/r/c6/fire/m1'] } });
  });

  it('lists the disagreements in report.html, each linked to both transcripts in the explorer', () => {
    const html = renderHtml(report);
    expect(html).toContain('<h2 id="comparisons">Paired comparisons</h2>');
    expect(html).toContain('href="explorer.html#claim=verify%2Fr%2Fc3%2Frag%2Fm1"');
    expect(html).toContain('href="explorer.html#claim=verify%2Fr%2Fc3%2Ffire%2Fm1"');
    expect(html).toMatch(/<td class="num">-0\.333 \[[^\]]+\]<\/td>/);
    expect(html).toContain('<td class="num">0.6250</td>');
    expect(renderMarkdown(report)).toContain('## Paired comparisons');
    const text = renderComparisonsText(report.comparisons);
    expect(text).toContain('| hover | rag · m1 | fire · m1 | 6 | 1 | 0.833 | 0.500 |');
    expect(text).toContain('4 claims answered differently, 4 right on one side only');
  });

  it('says so when the samples differ, and pairs only the claims in common', () => {
    const disjoint = run(['rag', 'fire'], [of('rag', 'c1', 'SUPPORTED'), of('rag', 'c2', 'SUPPORTED'), of('fire', 'c3', 'REFUTED'), of('fire', 'c4', 'REFUTED')]);
    const [c] = disjoint.comparisons.comparisons;
    expect(c).toMatchObject({ claims: 0, accuracyA: null, difference: null, mcnemar: null });
    expect(c!.note).toBe('rag and fire scored no claim in common (2 vs 2 scored claims): the samples differ, so there is no paired comparison');
    expect(renderHtml(disjoint)).toContain('the samples differ, so there is no paired comparison');
    const partial = run(['rag', 'fire'], [of('rag', 'c1', 'SUPPORTED'), of('rag', 'c2', 'SUPPORTED'), of('fire', 'c2', 'REFUTED'), of('fire', 'c3', 'REFUTED')]);
    expect(partial.comparisons.comparisons[0]).toMatchObject({ claims: 1, onlyInA: 1, onlyInB: 1, note: 'paired over the 1 claims both scored; 1 scored only by rag and 1 only by fire are left out' });
  });

  it('notes a run with one method and one model, and compares against a baseline method only', () => {
    expect(run(['rag'], [of('rag', 'c1', 'SUPPORTED')]).comparisons).toMatchObject({ comparisons: [], notes: ['hover: one method and one model, nothing to compare within the run (compare with another run: --baseline <run>)'] });
    const three = run(['rag', 'fire', 'mermaid'], ['rag', 'fire', 'mermaid'].flatMap((m) => [of(m, 'c1', 'SUPPORTED'), of(m, 'c3', 'REFUTED')]));
    expect(three.comparisons.comparisons.map((c) => `${c.a.method}-${c.b.method}`)).toEqual(['rag-fire', 'rag-mermaid', 'fire-mermaid']);
  });

  it('treats a claim with its repeats as one cluster', () => {
    const repeated = run(['rag', 'fire'], [
      of('rag', 'c1', 'SUPPORTED'), of('rag', 'c1', 'REFUTED', { workflowId: 'verify/r/c1/rag/m1/r1', sampling: { repeat: 1 } }),
      of('fire', 'c1', 'SUPPORTED'), of('fire', 'c1', 'SUPPORTED', { workflowId: 'verify/r/c1/fire/m1/r1', sampling: { repeat: 1 } }),
    ]);
    expect(repeated.comparisons.repeats).toBe(true);
    const [c] = repeated.comparisons.comparisons;
    expect(c).toMatchObject({ claims: 1, accuracyA: 0.5, accuracyB: 1, mcnemar: { onlyA: 0, onlyB: 1 } });
    expect(c!.disagreements[0]).toMatchObject({ a: { predicted: ['SUPPORTED', 'REFUTED'], correct: [true, false], workflowIds: ['verify/r/c1/rag/m1', 'verify/r/c1/rag/m1/r1'] } });
    expect(renderHtml(repeated)).toContain('>transcript 2</a>');
  });

  it('compares a run with a baseline run, method × model by method × model, paired by claim', () => {
    const [a, b] = [buildReport(runA(), goldLabels(), options), buildReport(runB(), goldLabels(), options)];
    const result = compareWithRun(a, b, options.bootstrap);
    expect(result.baseline).toEqual({ kind: 'run', value: 'run-a' });
    const hover = result.comparisons.find((c) => c.dataset === 'hover');
    // run-a scored c1…c6 (c6 failed), run-b c2…c7.
    expect(hover).toMatchObject({ varies: 'run', a: { runId: 'run-a', method: 'rag' }, b: { runId: 'run-b', method: 'rag' }, claims: 5, onlyInA: 1, onlyInB: 1 });
    expect(renderComparisonsText(result)).toContain('| hover | run-a · rag · m1 | run-b · rag · m1 | 5 |');
  });
});
