import { describe, expect, it } from 'vitest';
import { buildReport, SIMULATOR_BANNER, type GroupReport } from '../../src/report';
import { goldLabels, runA, runB, verdict } from '../support/report-fixtures';

function group(groups: GroupReport[], dataset: string): GroupReport {
  const found = groups.find((g) => g.key.dataset === dataset);
  if (!found) throw new Error(`no group for ${dataset}`);
  return found;
}

describe('buildReport', () => {
  const report = buildReport(runA(), goldLabels(), { generatedAt: '2026-01-02T00:00:00.000Z', bootstrap: { resamples: 200 } });
  const hover = group(report.groups, 'hover');

  it('groups verifications by dataset × method × model', () => {
    expect(report.groups.map((g) => g.key)).toEqual([
      { dataset: 'factcheck_bench', method: 'rag', model: 'm1' },
      { dataset: 'hover', method: 'rag', model: 'm1' },
    ]);
  });

  it('counts verdicts, failures, scored claims (the failed one included) and the invalid bucket', () => {
    expect(hover.counts).toEqual({ claims: 6, distinctClaims: 6, repeats: 1, verdicts: 5, failed: 1, scored: 6, unscored: 0, invalid: 1, excluded: 0 });
    expect(hover.failures).toEqual([{ claimId: 'c6', outcome: 'failed', reason: 'LLM output invalid after 3 attempts' }]);
  });

  it('builds the confusion matrix on the dataset scheme, NEI collapsed to REFUTED, the unparseable answer and the failed claim in the invalid/failed column', () => {
    expect(hover.scheme).toBe('binary');
    // c6 (gold SUPPORTED) failed; c5 (gold REFUTED) did not parse.
    expect(hover.confusion).toEqual({ labels: ['SUPPORTED', 'REFUTED'], counts: [[1, 1], [0, 2]], invalid: [1, 1] });
  });

  it('computes exact accuracy, per-class P/R/F1, macro- and weighted-F1 with the failed claim counted wrong', () => {
    // 3 right of 6 claims (c1, c3, c4), not 3 of the 5 that have a verdict.
    expect(hover.accuracy.estimate).toBeCloseTo(3 / 6, 12);
    expect(hover.perClass).toEqual([
      // SUPPORTED: 1 predicted and right; gold c1, c2, c6 → recall 1/3, F1 2·1·(1/3)/(4/3) = 1/2.
      { label: 'SUPPORTED', precision: 1, recall: expect.closeTo(1 / 3, 12), f1: expect.closeTo(1 / 2, 12), support: 3 },
      { label: 'REFUTED', precision: expect.closeTo(2 / 3, 12), recall: expect.closeTo(2 / 3, 12), f1: expect.closeTo(2 / 3, 12), support: 3 },
    ]);
    expect(hover.macroF1.estimate).toBeCloseTo(7 / 12, 12);
    expect(hover.weightedF1.estimate).toBeCloseTo(7 / 12, 12);
  });

  it('scores 10 claims with 8 right and 2 failed as accuracy 0.8, not 1.0', () => {
    const claims = Array.from({ length: 10 }, (_, i) => `k${i + 1}`);
    const gold = new Map<string, string | boolean>(claims.map((id) => [id, 'SUPPORTED']));
    const run = runA();
    run.verdicts = claims.slice(0, 8).map((id) => verdict(id, 'SUPPORTED'));
    run.failures = claims.slice(8).map((id) => ({ runId: 'run-a', claimId: id, dataset: 'hover', reason: 'LLM endpoint unreachable' }));
    const only = group(buildReport(run, gold, { bootstrap: { resamples: 20 } }).groups, 'hover');
    expect(only.counts).toEqual({ claims: 10, distinctClaims: 10, repeats: 1, verdicts: 8, failed: 2, scored: 10, unscored: 0, invalid: 0, excluded: 0 });
    expect(only.accuracy.estimate).toBeCloseTo(0.8, 12);
    expect(only.confusion.invalid).toEqual([2, 0]);
  });

  it('attaches bootstrap 95% confidence intervals around the estimates', () => {
    for (const ci of [hover.accuracy, hover.macroF1, hover.weightedF1]) {
      expect(ci).toMatchObject({ confidence: 0.95, resamples: 200 });
      expect(ci.lower).toBeLessThanOrEqual(ci.estimate);
      expect(ci.upper).toBeGreaterThanOrEqual(ci.estimate);
      expect(ci.upper).toBeGreaterThan(ci.lower);
    }
  });

  it('aggregates usage per claim over verdicts and latency percentiles', () => {
    expect(hover.usage.mean).toMatchObject({ llmCalls: 1, toolCalls: 2, totalTokens: 120, costUsd: expect.closeTo(0.001, 12) });
    expect(hover.usage.total.costUsd).toBeCloseTo(0.005, 12);
    expect(hover.latencyMs).toMatchObject({ p50: 300, p90: 500, p99: 500 });
    expect(hover.promptVersions).toEqual(['rag.verdict@1']);
  });

  it('leaves NEI gold claims of a binary dataset unscored', () => {
    const fcb = group(report.groups, 'factcheck_bench');
    expect(fcb.counts).toMatchObject({ verdicts: 1, scored: 0, unscored: 1 });
    expect(report.claims.find((row) => row.claimId === 'f1')).toMatchObject({ gold: null, correct: null, goldRaw: 'not_enough_evidence' });
  });

  it('carries the manifest and the simulator banner', () => {
    expect(report.simulator).toBe(true);
    expect(report.banner).toBe(SIMULATOR_BANNER);
    expect(report.manifest.gitCommit).toBe('deadbeef');
    const real = buildReport(runB(), goldLabels(), { bootstrap: { resamples: 10 } });
    expect(real.banner).toBeNull();
  });

  it('is reproducible: the bootstrap is seeded', () => {
    const again = buildReport(runA(), goldLabels(), { generatedAt: '2026-01-02T00:00:00.000Z', bootstrap: { resamples: 200 } });
    expect(again).toEqual(report);
  });
});
