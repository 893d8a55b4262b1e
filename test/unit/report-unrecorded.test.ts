import { describe, expect, it } from 'vitest';
import { buildReport } from '../../eval/report';
import { goldLabels, runB } from '../support/report-fixtures';

describe('report: verifications a run calls for but nothing records', () => {
  it('says how many of the stored claims × methods × models have neither a verdict nor a failure', () => {
    const fixture = runB();
    const stored = new Map(fixture.verdicts.map((v) => [v.claimId, { runId: v.runId, claimId: v.claimId, dataset: v.dataset! }]));
    const records = { ...fixture, claims: [...stored.values()] };
    const complete = buildReport(records, goldLabels());
    expect(complete.warnings.filter((w) => w.includes('neither a verdict nor a failure'))).toEqual([]);
    const [lost] = records.verdicts;
    const withLoss = buildReport({ ...records, verdicts: records.verdicts.slice(1) }, goldLabels());
    expect(withLoss.claims.some((row) => row.claimId === lost!.claimId && row.method === lost!.method && row.model === lost!.model)).toBe(false);
    expect(withLoss.warnings).toContain("1 verification(s) of the run's claims have neither a verdict nor a failure record (still running, or their records were lost) and are in no metric");
  });
});
