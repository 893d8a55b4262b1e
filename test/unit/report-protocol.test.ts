import { describe, expect, it } from 'vitest';
import { buildReport, renderMarkdown, type GroupReport } from '../../src/report';
import type { RunRecords } from '../../src/runs/run-records';
import { manifest, verdict } from '../support/report-fixtures';

/**
 * FIRE on a binary set: c1 ✓ (SUPPORTED), c2 ✗ (gold SUPPORTED, said REFUTED), c3 and c4 ✓ (REFUTED),
 * c5 (gold REFUTED) and c6 (gold SUPPORTED) ended without a final answer (label NEI, method label `failed`).
 */
function fireRun(protocol?: 'verity' | 'paper'): RunRecords {
  const base = manifest('run-fire');
  const fire = (claimId: string, label: string, methodLabel: string) => verdict(claimId, label, { method: 'fire', methodLabel, workflowId: `verify/run-fire/${claimId}/fire` });
  return {
    manifest: { ...base, config: { ...base.config, methods: ['fire'], ...(protocol ? { protocol } : {}) } },
    verdicts: [
      fire('c1', 'SUPPORTED', 'true'),
      fire('c2', 'REFUTED', 'false'),
      fire('c3', 'REFUTED', 'false'),
      fire('c4', 'REFUTED', 'false'),
      fire('c5', 'NEI', 'failed'),
      fire('c6', 'NEI', 'failed'),
    ],
    claims: [],
    failures: [],
    warnings: [],
  };
}

const gold = new Map<string, string>([
  ['c1', 'SUPPORTED'],
  ['c2', 'SUPPORTED'],
  ['c3', 'NOT_SUPPORTED'],
  ['c4', 'NOT_SUPPORTED'],
  ['c5', 'NOT_SUPPORTED'],
  ['c6', 'SUPPORTED'],
]);

function hoverGroup(protocol?: 'verity' | 'paper'): { group: GroupReport; report: ReturnType<typeof buildReport> } {
  const report = buildReport(fireRun(protocol), gold, { bootstrap: { resamples: 0 } });
  const group = report.groups.find((g) => g.key.dataset === 'hover');
  if (!group) throw new Error('no hover group');
  return { group, report };
}

describe('FIRE without a final answer, per protocol', () => {
  it('protocol verity (the default): scored as no valid answer, never as REFUTED', () => {
    const { group, report } = hoverGroup();
    expect(report.protocol).toBe('verity');
    // c5 and c6 sit in the invalid column; NEI→REFUTED would have made c5 right (4/6).
    expect(group.confusion).toEqual({ labels: ['SUPPORTED', 'REFUTED'], counts: [[1, 1], [0, 2]], invalid: [1, 1] });
    expect(group.counts).toMatchObject({ scored: 6, invalid: 2, excluded: 0 });
    expect(group.accuracy.estimate).toBeCloseTo(3 / 6, 12);
    // SUPPORTED: P 1/1, R 1/3, F1 1/2; REFUTED: P 2/3, R 2/3, F1 2/3; macro = weighted = 7/12.
    expect(group.macroF1.estimate).toBeCloseTo(7 / 12, 12);
    expect(group.weightedF1.estimate).toBeCloseTo(7 / 12, 12);
    expect(group.paper).toBeNull();
  });

  it('protocol paper: left out of the metrics and counted, as FIRE\'s evaluate_file does', () => {
    const { group, report } = hoverGroup('paper');
    expect(group.confusion).toEqual({ labels: ['SUPPORTED', 'REFUTED'], counts: [[1, 1], [0, 2]], invalid: [0, 0] });
    expect(group.counts).toMatchObject({ verdicts: 6, scored: 4, invalid: 0, excluded: 2, unscored: 0 });
    expect(group.accuracy.estimate).toBeCloseTo(3 / 4, 12);
    expect(report.claims.filter((row) => row.excluded).map((row) => [row.claimId, row.correct])).toEqual([['c5', null], ['c6', null]]);
  });
});

describe('protocol paper: macro/weighted F1 as the papers computed them', () => {
  it('rounds the class F1s first (EMULATE eval.ipynb), where the unrounded mean rounds differently', () => {
    const { group } = hoverGroup('paper');
    // SUPPORTED: P 1, R 1/2, F1 2/3 → 0.67; REFUTED: P 2/3 → 0.67, R 1, F1 0.8.
    // Paper: macro (0.67 + 0.80)/2 = 0.735 → 0.74; weighted (0.67·2 + 0.80·2)/4 → 0.74.
    // Unrounded: macro = weighted = (2/3 + 4/5)/2 = 11/15 = 0.7333 → 0.73.
    expect(group.paper).toEqual({
      perClass: [
        { label: 'SUPPORTED', precision: 1, recall: 0.5, f1: 0.67 },
        { label: 'REFUTED', precision: 0.67, recall: 1, f1: 0.8 },
      ],
      macroF1: 0.74,
      weightedF1: 0.74,
      headline: { metric: 'macro-F1 (EMULATE eval.ipynb rounding)', value: 0.74 },
    });
    expect(group.macroF1.estimate).toBeCloseTo(11 / 15, 12);
  });

  it('a report states the convention of every metric, and report.md shows the paper columns', () => {
    const paper = hoverGroup('paper').report;
    expect(paper.conventions.map((c) => c.metric)).toEqual([
      'label set',
      'accuracy',
      'per-class P/R/F1',
      'macro-F1',
      'weighted-F1',
      'intervals',
      'rounding (protocol: paper)',
      'paper headline (protocol: paper)',
      'no-answer fallbacks (protocol: paper)',
      'FIRE without a final answer (protocol: paper)',
    ]);
    const markdown = renderMarkdown(paper);
    expect(markdown).toContain('| dataset | method | model | claims (n) | repeats (k) | scored | invalid | failed | excluded | paper headline | macro-F1 (paper) | weighted-F1 (paper) |');
    expect(markdown).toContain('| hover | fire | m1 | 6 | 1 | 4 | 0 | 0 | 2 | macro-F1 (EMULATE eval.ipynb rounding): 0.74 | 0.74 | 0.74 |');
    expect(markdown).toContain('### Metric conventions');
    expect(markdown).toContain("EMULATE's eval.ipynb");

    const verity = renderMarkdown(hoverGroup().report);
    expect(verity).not.toContain('macro-F1 (paper)');
    expect(verity).toContain('| rounding (protocol: verity) | none');
  });
});
