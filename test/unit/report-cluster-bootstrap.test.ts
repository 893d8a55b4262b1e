import { describe, expect, it } from 'vitest';
import { buildGroupReport } from '../../src/report/group-report';
import { comparisonsTable } from '../../src/report/render/comparisons-table';
import { summaryTable } from '../../src/report/render/report-tables';
import type { ClaimRow } from '../../src/report/report-types';
import type { SchemeLabel } from '../../src/labels';

const KEY = { dataset: 'hover', method: 'rag', model: 'm1' };

function row(claimId: string, repeat: number, gold: SchemeLabel, predicted: SchemeLabel): ClaimRow {
  return {
    ...KEY, claimId, repeat, workflowId: `verify/r/${claimId}/${repeat}`, status: 'verdict', goldRaw: gold, gold, predictedRaw: predicted, predicted,
    correct: gold === predicted, excluded: false, durationMs: 1, promptVersion: 'rag.verdict@1', failureReason: null, decidedBy: null,
    llmCalls: 1, cachedLlmCalls: 0, toolCalls: 0, promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: 0,
  };
}

/** 50 claims, 33 right (the example), each verified `repeats` times with the same answer. */
function rows(repeats: number): ClaimRow[] {
  return Array.from({ length: 50 }, (_, i) => i).flatMap((i) =>
    Array.from({ length: repeats }, (_, repeat) => row(`c${i}`, repeat, i % 2 === 0 ? 'SUPPORTED' : 'REFUTED', i < 33 ? (i % 2 === 0 ? 'SUPPORTED' : 'REFUTED') : i % 2 === 0 ? 'REFUTED' : 'SUPPORTED')),
  );
}

describe('intervals resample claims with all their repeats (issue 37 §2.4)', () => {
  const options = { seed: 5, resamples: 1000 };
  const once = buildGroupReport(KEY, rows(1), options, 'binary');
  const fiveTimes = buildGroupReport(KEY, rows(5), options, 'binary');

  it('five identical repeats do not narrow the interval of 50 claims', () => {
    for (const metric of ['accuracy', 'macroF1', 'weightedF1'] as const) {
      expect(fiveTimes[metric].estimate).toBeCloseTo(once[metric].estimate, 12);
      expect(fiveTimes[metric].upper - fiveTimes[metric].lower).toBeCloseTo(once[metric].upper - once[metric].lower, 12);
    }
    expect(once.accuracy.upper - once.accuracy.lower).toBeGreaterThan(0.2);
  });

  it('counts n claims and k repeats apart, and the summary table shows both', () => {
    expect(fiveTimes.counts).toMatchObject({ claims: 250, distinctClaims: 50, repeats: 5 });
    const table = summaryTable([fiveTimes]);
    const row = table.rows[0]!;
    expect(row[table.header.indexOf('claims (n)')]).toBe('50');
    expect(row[table.header.indexOf('repeats (k)')]).toBe('5');
  });

  it('the compare table shows the paired claims and their repeats apart', () => {
    const table = comparisonsTable({
      runId: 'r',
      baseline: null,
      repeats: true,
      notes: [],
      comparisons: [
        {
          dataset: 'hover', varies: 'method', a: { runId: 'r', method: 'rag', model: 'm1' }, b: { runId: 'r', method: 'llm-only', model: 'm1' },
          claims: 50, repeats: 5, onlyInA: 0, onlyInB: 0, accuracyA: 0.5, accuracyB: 0.6, difference: null, mcnemar: null, disagreements: [], note: null,
        },
      ],
    });
    expect(table.rows[0]![table.header.indexOf('repeats (k)')]).toBe('5');
  });
});
