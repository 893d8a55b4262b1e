import { describe, expect, it } from 'vitest';
import { renderClaimsCsv } from '../../src/report/render/csv';
import { buildReport } from '../../src/report';
import { csvCell } from '../../src/shared/csv-cell';
import { goldLabels, manifest, verdict } from '../support/report-fixtures';

describe('CSV cells against formula injection', () => {
  it('prefixes text that a spreadsheet would run as a formula with a quote, and leaves numbers alone', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(['+1', '-1+2', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual(["'+1", "'-1+2", "'@SUM(A1)", "'\tx", `"'\rx"`]);
    expect([-0.5, 3, true, null].map(csvCell)).toEqual(['-0.5', '3', 'true', '']);
    expect(csvCell('plain, text')).toBe('"plain, text"');
  });
});

describe("the report's claims.csv", () => {
  it('neutralises formula-like claim ids, dataset names and failure reasons', () => {
    const records = {
      manifest: manifest('run-x'),
      verdicts: [verdict('=1+1', 'SUPPORTED', { dataset: '@evil' })],
      claims: [],
      failures: [{ runId: 'run-x', claimId: 'c6', dataset: 'hover', reason: '-2+3 failed' }],
      warnings: [],
    };
    const csv = renderClaimsCsv(buildReport(records, goldLabels(), { generatedAt: '2026-01-01T00:00:00.000Z' }));
    const cells = csv.trim().split('\n').slice(1).flatMap((line) => line.split(','));
    expect(cells).toEqual(expect.arrayContaining(["'=1+1", "'@evil", "'-2+3 failed"]));
    expect(cells.filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
  });
});
