import { describe, expect, it } from 'vitest';
import { sweepOwnVerdicts } from '../../src/runs/sweep-own-verdicts';
import { manifest, verdict } from '../support/report-fixtures';

/** A sweep's report counts only its own (claim, dataset, method, model, repeat) verdicts (issue 39). */
describe('sweepOwnVerdicts', () => {
  const claims = [
    { runId: 'r', claimId: 'c1', dataset: 'hover' },
    { runId: 'r', claimId: 'c2', dataset: 'hover' },
  ];

  it('leaves out verdicts of another claim, dataset, method, model or a repeat past the run\'s', () => {
    const own = [verdict('c1', 'SUPPORTED'), verdict('c2', 'REFUTED'), verdict('c2', 'REFUTED', { sampling: { repeat: 1 } })];
    const foreign = [
      verdict('c1', 'REFUTED', { dataset: undefined }),
      verdict('new', 'SUPPORTED'),
      verdict('c1', 'SUPPORTED', { method: 'fire' }),
      verdict('c1', 'SUPPORTED', { model: 'other' }),
      verdict('c1', 'SUPPORTED', { sampling: { repeat: 2 } }),
    ];
    const result = sweepOwnVerdicts(manifest('r', { config: { ...manifest('r').config, repeats: 2 } }), claims, [...own, ...foreign]);
    expect(result).toEqual({ own, foreign: foreign.length });
  });

  it('checks variants only for a run stored without its claims', () => {
    const result = sweepOwnVerdicts(manifest('r'), [], [verdict('anything', 'SUPPORTED'), verdict('c1', 'SUPPORTED', { model: 'other' })]);
    expect(result.foreign).toBe(1);
  });
});
