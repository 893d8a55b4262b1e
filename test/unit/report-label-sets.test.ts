import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report';
import { datasetScheme, goldOnScheme } from '../../src/report/dataset-scheme';
import { manifest, verdict } from '../support/report-fixtures';

describe('label sets: AVeriTeC Conflicting and FaVIQ (issue 37 §2.3)', () => {
  it("AVeriTeC: Tool-MAD's four-label answer CONFLICTING EVIDENCE/CHERRYPICKING can score a Conflicting gold right", () => {
    const base = manifest('run-averitec');
    const records = {
      manifest: { ...base, config: { ...base.config, methods: ['tool-mad'] } },
      verdicts: [
        verdict('a1', 'NEI', { dataset: 'averitec', method: 'tool-mad', methodLabel: 'CONFLICTING EVIDENCE/CHERRYPICKING', trace: { labelSet: 'averitec' } }),
        verdict('a2', 'NEI', { dataset: 'averitec', method: 'tool-mad', methodLabel: 'NOT ENOUGH EVIDENCE' }),
      ],
      claims: [],
      failures: [],
      warnings: [],
    };
    const gold = new Map([
      ['a1', 'Conflicting Evidence/Cherrypicking'],
      ['a2', 'Not Enough Evidence'],
    ]);
    const report = buildReport(records, gold, { bootstrap: { resamples: 0 } });
    const group = report.groups.find((g) => g.key.dataset === 'averitec')!;
    expect(group.scheme).toBe('four-way');
    expect(group.accuracy.estimate).toBe(1);
    expect(report.warnings).toContain('averitec · tool-mad · m1: Option B (four labels, scored four-way)');
  });

  // tool-mad.md §10 #11, Option A (the default): Not Enough Evidence and Conflicting gold both score as NOT ENOUGH INFO.
  it("AVeriTeC Option A: Tool-MAD's three-label verdicts are scored three-way, so its NOT ENOUGH INFO answers a Conflicting gold right", () => {
    const base = manifest('run-averitec-a');
    const optionA = { dataset: 'averitec', method: 'tool-mad', trace: { labelSet: 'fever' } };
    const records = {
      manifest: { ...base, config: { ...base.config, methods: ['tool-mad'] } },
      verdicts: [
        verdict('a1', 'NEI', { ...optionA, methodLabel: 'NOT ENOUGH INFO' }),
        verdict('a2', 'NEI', { ...optionA, methodLabel: 'NOT ENOUGH INFO' }),
        verdict('a3', 'SUPPORTED', { ...optionA, methodLabel: 'SUPPORTS' }),
        verdict('a4', 'SUPPORTED', { ...optionA, methodLabel: 'SUPPORTS' }),
      ],
      claims: [],
      failures: [{ runId: 'run-averitec-a', claimId: 'a5', dataset: 'averitec', method: 'tool-mad', model: 'm1', reason: 'judge failed' }],
      warnings: [],
    };
    const gold = new Map([
      ['a1', 'Conflicting Evidence/Cherrypicking'],
      ['a2', 'Not Enough Evidence'],
      ['a3', 'Supported'],
      ['a4', 'Refuted'],
      ['a5', 'Conflicting Evidence/Cherrypicking'],
    ]);
    const report = buildReport(records, gold, { bootstrap: { resamples: 0 } });
    const group = report.groups.find((g) => g.key.dataset === 'averitec')!;
    expect(group.scheme).toBe('three-way');
    expect(report.claims.map((row) => [row.claimId, row.gold, row.correct])).toEqual([
      ['a1', 'NEI', true],
      ['a2', 'NEI', true],
      ['a3', 'SUPPORTED', true],
      ['a4', 'REFUTED', false],
      ['a5', 'NEI', false],
    ]);
    expect(group.accuracy.estimate).toBeCloseTo(3 / 5);
    expect(report.warnings).toContain(
      'averitec · tool-mad · m1: Option A (three labels; Not Enough Evidence and Conflicting Evidence/Cherrypicking gold scored as NOT ENOUGH INFO, three-way)',
    );
  });

  it('FaVIQ has a mapping, and an NEI answer to its binary gold is wrong, never REFUTED', () => {
    expect(datasetScheme('faviq')).toBe('three-way');
    expect(goldOnScheme('faviq', 'SUPPORTS', 'three-way')).toBe('SUPPORTED');
    expect(goldOnScheme('faviq', 'REFUTES', 'three-way')).toBe('REFUTED');
    const base = manifest('run-faviq');
    const records = {
      manifest: { ...base, config: { ...base.config, methods: ['tool-mad'] } },
      verdicts: [
        verdict('f1', 'NEI', { dataset: 'faviq', method: 'tool-mad', trace: { labelSet: 'fever' } }),
        verdict('f2', 'REFUTED', { dataset: 'faviq', method: 'tool-mad', trace: { labelSet: 'fever' } }),
      ],
      claims: [],
      failures: [],
      warnings: [],
    };
    const report = buildReport(records, new Map([['f1', 'REFUTES'], ['f2', 'REFUTES']]), { bootstrap: { resamples: 0 } });
    expect(report.claims.map((row) => [row.claimId, row.predicted, row.correct])).toEqual([
      ['f1', 'NEI', false],
      ['f2', 'REFUTED', true],
    ]);
  });
});
