import { describe, expect, it } from 'vitest';
import { buildReport, diffRuns, renderDiffText } from '../../src/report';
import { goldLabels, runA, runB } from '../support/report-fixtures';

describe('diffRuns', () => {
  const options = { bootstrap: { resamples: 20 } };
  const diff = diffRuns(buildReport(runA(), goldLabels(), options), buildReport(runB(), goldLabels(), options));
  const change = (claimId: string) => diff.changes.find((c) => c.claimId === claimId);

  it('summarises per-claim changes', () => {
    expect(diff).toMatchObject({ runA: 'run-a', runB: 'run-b' });
    expect(diff.summary).toMatchObject({
      appeared: 1,
      disappeared: 1,
      'label-changed': 4,
      unchanged: 2,
      // c6 failed in run A (a wrong answer) and is right in run B.
      becameCorrect: 3,
      becameIncorrect: 1,
      llmCallsDelta: 3,
    });
    expect(diff.summary.costDeltaUsd).toBeCloseTo(0.004, 12);
  });

  it('lists the claims that changed, with their direction and deltas', () => {
    expect(diff.changes.map((c) => [c.claimId, c.kind, c.became])).toEqual([
      ['c1', 'disappeared', null],
      ['c2', 'label-changed', 'correct'],
      ['c3', 'label-changed', 'incorrect'],
      ['c5', 'label-changed', 'correct'],
      ['c6', 'label-changed', 'correct'],
      ['c7', 'appeared', null],
    ]);
    expect(change('c2')).toMatchObject({ predictedA: 'REFUTED', predictedB: 'SUPPORTED', llmCallsDelta: 2, toolCallsDelta: 2 });
    expect(change('c2')?.costDeltaUsd).toBeCloseTo(0.003, 12);
    expect(change('c6')).toMatchObject({ predictedA: 'failed', predictedB: 'SUPPORTED' });
  });

  it('gives metric deltas per group', () => {
    const hover = diff.groups.find((g) => g.key.dataset === 'hover');
    // Run A's failed c6 is in the denominator: 3 right of 6, not of 5.
    expect(hover?.a?.accuracy).toBeCloseTo(3 / 6, 12);
    expect(hover?.b?.accuracy).toBeCloseTo(5 / 6, 12);
    expect(hover?.delta?.accuracy).toBeCloseTo(5 / 6 - 3 / 6, 12);
    expect(hover?.delta?.claims).toBe(0);
  });

  it('shows – for the metrics of a group without a scored claim, as the report does', () => {
    const unscored = diff.groups.find((g) => g.key.dataset === 'factcheck_bench')!;
    expect(unscored.a?.accuracy).toBeNull();
    expect(unscored.delta?.accuracy).toBeNull();
    const row = renderDiffText(diff).split('\n').find((line) => line.includes('factcheck_bench'))!;
    expect(row).toContain('– → – (–)');
    expect(row).not.toContain('0.000');
  });
});
