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
        verdict('a1', 'NEI', { dataset: 'averitec', method: 'tool-mad', methodLabel: 'CONFLICTING EVIDENCE/CHERRYPICKING' }),
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
    const group = buildReport(records, gold, { bootstrap: { resamples: 0 } }).groups.find((g) => g.key.dataset === 'averitec')!;
    expect(group.scheme).toBe('four-way');
    expect(group.accuracy.estimate).toBe(1);
  });

  it('FaVIQ has a mapping, and an NEI answer to its binary gold is wrong, never REFUTED', () => {
    expect(datasetScheme('faviq')).toBe('three-way');
    expect(goldOnScheme('faviq', 'SUPPORTS', 'three-way')).toBe('SUPPORTED');
    expect(goldOnScheme('faviq', 'REFUTES', 'three-way')).toBe('REFUTED');
  });
});
