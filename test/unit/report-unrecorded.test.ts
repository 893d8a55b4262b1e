import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report';
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

  it('counts a claim verified again (another identity, same run) once, with its latest verdict, and says so', () => {
    const fixture = runB();
    const [first] = fixture.verdicts;
    const earlier = { ...first!, workflowId: `${first!.workflowId}-old`, label: first!.label === 'SUPPORTED' ? 'REFUTED' : 'SUPPORTED', storedAt: '2026-01-01T00:00:00.000Z' };
    const later = { ...first!, storedAt: '2026-02-01T00:00:00.000Z' };
    const report = buildReport({ ...fixture, verdicts: [later, ...fixture.verdicts.slice(1), earlier] }, goldLabels());
    const rows = report.claims.filter((row) => row.claimId === first!.claimId && row.method === first!.method && row.model === first!.model);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.predictedRaw).toBe(first!.label);
    expect(report.claims).toHaveLength(buildReport(fixture, goldLabels()).claims.length);
    expect(report.warnings).toContain('1 earlier verdict(s) of claims verified again (under another code or settings identity) are left out; each claim counts once, with its latest verdict');
  });
});
