import { describe, expect, it } from 'vitest';
import { buildReport, renderGroupsCsv, renderMarkdown } from '../../src/report';
import { runVerdictSchema } from '../../src/runs/run-records';
import { manifest, verdict } from '../support/report-fixtures';

const toolMad = (claimId: string, decidedBy: unknown) =>
  runVerdictSchema.parse({ ...verdict(claimId, 'SUPPORTED', { method: 'tool-mad' }), trace: { method: 'tool-mad', decidedBy, rounds: [{ turns: [] }] } });

describe('the share of Tool-MAD debates decided by consensus vs the judge', () => {
  const base = manifest('run-tm');
  const report = buildReport(
    {
      manifest: { ...base, config: { ...base.config, methods: ['tool-mad', 'rag'] } },
      verdicts: [toolMad('c1', 'consensus'), toolMad('c2', 'judge'), toolMad('c3', 'judge'), toolMad('c4', 'judge'), verdict('c5', 'REFUTED')],
      claims: [],
      failures: [],
      warnings: [],
    },
    new Map([['c1', 'SUPPORTED'], ['c2', 'SUPPORTED'], ['c3', 'SUPPORTED'], ['c4', 'NOT_SUPPORTED'], ['c5', 'NOT_SUPPORTED']]),
    { bootstrap: { resamples: 20 } },
  );

  it('keeps only decidedBy of a stored trace', () => {
    expect(toolMad('x', 'judge').trace).toEqual({ decidedBy: 'judge' });
    expect(toolMad('x', 42).trace).toEqual({ decidedBy: undefined });
  });

  it('counts them per group: 1 by consensus, 3 by the judge (75%); other methods have none', () => {
    const byMethod = Object.fromEntries(report.groups.map((g) => [g.key.method, g.debates]));
    expect(byMethod['tool-mad']).toEqual({ consensus: 1, judge: 3, judgeShare: 0.75 });
    expect(byMethod.rag).toBeNull();
  });

  it('shows them in report.md and groups.csv', () => {
    expect(renderMarkdown(report)).toMatch(/## Debates[\s\S]*\| hover · tool-mad · m1 \| 4 \| 1 \| 3 \| 75\.0% \|/);
    const [header, ...rows] = renderGroupsCsv(report).trim().split('\n').map((line) => line.split(','));
    const toolMadRow = rows.find((row) => row[header!.indexOf('method')] === 'tool-mad')!;
    expect([toolMadRow[header!.indexOf('debatesByConsensus')], toolMadRow[header!.indexOf('debatesByJudge')]]).toEqual(['1', '3']);
  });
});
