import { describe, expect, it } from 'vitest';
import { boxStats } from '../../src/explorer/charts/box-stats';
import { explorerCharts } from '../../src/explorer/charts/explorer-charts';
import { learningWindow, rollingAccuracy } from '../../src/explorer/charts/learning-curve';
import { paretoFront } from '../../src/explorer/charts/pareto-front';
import { selectsFailures, explorerFilterSchema } from '../../src/explorer/explorer-filter';
import { chartCombinations, chartSetKey } from '../../src/explorer/explorer-snapshot-charts';
import type { SchemeLabel } from '../../src/labels';
import type { ClaimRow } from '../../src/report/report-types';
import type { RunManifest } from '../../src/runs/run-manifest';

const manifest = { config: { datasets: [{ name: 'hover' }] } } as unknown as Pick<RunManifest, 'config'>;

function row(over: Partial<ClaimRow> & { claimId: string; gold: SchemeLabel; predicted: SchemeLabel }): ClaimRow {
  return {
    dataset: 'hover', method: 'rag', model: 'm1', repeat: 0, workflowId: `verify/${over.method ?? 'rag'}/${over.claimId}/${over.repeat ?? 0}`, status: 'verdict',
    goldRaw: over.gold, predictedRaw: over.predicted, correct: over.gold === over.predicted, excluded: false, durationMs: 1_000, promptVersion: 'p@1', failureReason: null, decidedBy: null,
    llmCalls: 1, cachedLlmCalls: 0, toolCalls: 0, promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: 0,
    ...over,
    ...(over.totalTokens !== undefined ? { promptTokens: over.totalTokens, completionTokens: 0 } : {}),
  };
}

describe('chart series', () => {
  it('box stats: linear quartiles, min, max and mean; null for nothing', () => {
    expect(boxStats([4, 1, 3, 2])).toEqual({ n: 4, min: 1, q1: 1.75, median: 2.5, q3: 3.25, max: 4, mean: 2.5 });
    expect(boxStats([])).toBeNull();
    expect(boxStats([Number.NaN, 7])).toMatchObject({ n: 1, median: 7 });
  });

  it('Pareto front: cheaper-and-better points only; coinciding points both stay', () => {
    const points = [
      { x: 1, y: 0.5 }, // front: cheapest
      { x: 2, y: 0.7 }, // front
      { x: 3, y: 0.6 }, // dominated by (2, 0.7)
      { x: 2, y: 0.7 }, // coincides: front
      { x: 5, y: 0.9 }, // front: best
      { x: 1, y: 0.4 }, // dominated by (1, 0.5)
    ];
    expect(paretoFront(points)).toEqual([0, 1, 3, 4]);
  });

  it('rolling accuracy over the last window claims, in the order the policy saw them', () => {
    const steps = [true, false, true, true, false, false].map((correct, i) => ({ order: 10 - i, correct }));
    // In order: false, false, true, true, false, true.
    expect(rollingAccuracy(steps, 2).map((p) => p.y)).toEqual([0, 0, 0.5, 1, 0.5, 0.5]);
    expect(rollingAccuracy(steps, 2).map((p) => p.x)).toEqual([1, 2, 3, 4, 5, 6]);
    expect([learningWindow(3), learningWindow(60), learningWindow(1000)]).toEqual([5, 12, 25]);
  });

  it('failed verifications are drawn unless the filter says something only a verdict has', () => {
    const parse = (q: Record<string, string>) => explorerFilterSchema.parse(q);
    expect(selectsFailures(parse({}))).toBe(true);
    expect(selectsFailures(parse({ method: 'rag', dataset: 'hover' }))).toBe(true);
    expect(selectsFailures(parse({ status: 'failed' }))).toBe(true);
    expect(selectsFailures(parse({ status: 'invalid' }))).toBe(false);
    for (const key of ['predicted', 'gold', 'outcome', 'text', 'minCost', 'maxCalls']) expect(selectsFailures(parse({ [key]: key === 'outcome' ? 'correct' : '1' }))).toBe(false);
  });

  it('offline chart sets: every facet combination while few, else each facet alone', () => {
    expect(chartCombinations({ method: ['a', 'b'], model: ['m'], dataset: ['d'] })).toHaveLength(3 * 2 * 2);
    const many = chartCombinations({ method: ['a', 'b', 'c', 'd', 'e'], model: ['m', 'n', 'o'], dataset: ['x', 'y'] });
    expect(many).toContainEqual(['', '', '']);
    expect(many).toContainEqual(['c', '', '']);
    expect(many.every((c) => c.filter((v) => v !== '').length <= 1)).toBe(true);
    expect(chartSetKey('a', '', 'd')).toBe('["a","","d"]');
  });
});

describe('explorer charts of the filtered rows', () => {
  const hops = (claimId: string) => ({ field: 'num_hops', value: Number(claimId.slice(1)) % 2 === 0 ? '2' : '3' });
  const rows: ClaimRow[] = ['c1', 'c2', 'c3', 'c4'].flatMap((claimId, i) => [
    row({ claimId, gold: 'SUPPORTED', predicted: i < 3 ? 'SUPPORTED' : 'REFUTED', llmCalls: i + 1, toolCalls: 2 * i, totalTokens: 100 * (i + 1), durationMs: 60_000 * (i + 1), stratum: hops(claimId) }),
    row({ claimId, method: 'mermaid', gold: 'SUPPORTED', predicted: 'SUPPORTED', llmCalls: 5, toolCalls: 3, totalTokens: 1_000, durationMs: 2_000, stratum: hops(claimId) }),
  ]);
  const charts = explorerCharts({ rows, manifest, bootstrap: { resamples: 50 } });
  const byId = (id: string) => charts.find((c) => c.id === id)!;

  it('draws F1, strata, tokens (no cost recorded), calls and latency distributions, and a confusion matrix per group', () => {
    expect(charts.map((c) => c.id)).toEqual(['f1', 'strata', 'tokens', 'calls', 'latency', 'confusion-0', 'confusion-1']);
    for (const chart of charts) expect(chart.svg).toMatch(/^<svg [^>]*class="chart"/);
    expect(byId('f1').table.rows.map((r) => [r[0], r[2]])).toEqual([
      ['hover · mermaid · m1', 1],
      ['hover · rag · m1', 0.75],
    ]);
    expect(byId('strata').table.rows.map((r) => [r[1], r[2], r[5]])).toEqual([
      ['num_hops=2', 'mermaid', 1],
      ['num_hops=3', 'mermaid', 1],
      ['num_hops=2', 'rag', 0.5],
      ['num_hops=3', 'rag', 1],
    ]);
  });

  it('puts tokens against macro-F1 with the Pareto front when every cost is $0', () => {
    // rag: 250 tokens a claim and a lower macro-F1 than mermaid's 1,000 tokens: both on the front.
    expect(byId('tokens').table.rows).toEqual([
      ['hover · mermaid · m1', 1000, 0.5, 'yes'],
      ['hover · rag · m1', 250, 0.429, 'yes'],
    ]);
    expect(byId('tokens').svg).toContain('class="front"');
    const costly = explorerCharts({ rows: rows.map((r) => ({ ...r, costUsd: r.method === 'rag' ? 0.002 : 0.001 })), manifest, bootstrap: { resamples: 50 } });
    const cost = costly.find((c) => c.id === 'cost')!;
    // mermaid is cheaper and better: rag is off the front.
    expect(cost.table.rows.map((r) => [r[0], r[1], r[3]])).toEqual([
      ['hover · mermaid · m1', 0.001, 'yes'],
      ['hover · rag · m1', 0.002, 'no'],
    ]);
  });

  it('gives distributions, not only means: quartiles of calls, and durations in human units', () => {
    const rag = byId('calls').table.rows.filter((r) => r[0] === 'hover · rag · m1');
    expect(rag).toEqual([
      ['hover · rag · m1', 'LLM', 4, 1, 1.75, 2.5, 3.25, 4, 2.5],
      ['hover · rag · m1', 'tool', 4, 0, 1.5, 3, 4.5, 6, 3],
    ]);
    expect(byId('latency').table.rows.find((r) => r[0] === 'hover · rag · m1')).toEqual(['hover · rag · m1', 4, '1 min', '1 min 45 s', '2 min 30 s', '3 min 15 s', '4 min', '2 min 30 s']);
    expect(byId('latency').svg).toContain('>4 min<');
    expect(byId('latency').svg).toContain('>1 min<');
  });

  it('shows repeats as a spread, and the learning curve when a learning method has an order', () => {
    const repeated = [0, 1].flatMap((repeat) => ['c1', 'c2'].map((claimId) => row({ claimId, repeat, gold: 'SUPPORTED', predicted: repeat === 0 || claimId === 'c1' ? 'SUPPORTED' : 'REFUTED' })));
    const withRepeats = explorerCharts({ rows: repeated, manifest, bootstrap: { resamples: 20 } });
    expect(withRepeats.find((c) => c.id === 'repeats')!.table.rows[0]!.slice(0, 3)).toEqual(['hover · rag · m1', 2, '1 0.5']);
    // Two boxes (accuracy, macro-F1), each spanning its repeats' values.
    expect(withRepeats.find((c) => c.id === 'repeats')!.svg.match(/fill-opacity="0.55"/g)).toHaveLength(2);

    const toe = ['c1', 'c2', 'c3'].map((claimId, i) => row({ claimId, method: 'toe', gold: 'SUPPORTED', predicted: i === 0 ? 'REFUTED' : 'SUPPORTED' }));
    const order = new Map(toe.map((r, i) => [r.workflowId!, i]));
    const learning = explorerCharts({ rows: toe, manifest, learningOrder: order, bootstrap: { resamples: 20 } }).find((c) => c.id === 'learning')!;
    expect(learning.table.rows.map((r) => r[2])).toEqual([0, 0.5, 0.667]);
    expect(learning.svg.match(/<polyline /g)).toHaveLength(1);
    expect(explorerCharts({ rows: toe, manifest, bootstrap: { resamples: 20 } }).some((c) => c.id === 'learning')).toBe(false);
  });

  it('draws nothing for no rows', () => {
    expect(explorerCharts({ rows: [], manifest })).toEqual([]);
  });
});

describe('duration axis', () => {
  it('ticks in round durations up to the largest value', async () => {
    const { durationTicks } = await import('../../src/report/render/charts/scale');
    expect(durationTicks(240_000)).toEqual([0, 60_000, 120_000, 180_000, 240_000]);
    expect(durationTicks(7_300)).toEqual([0, 2_000, 4_000, 6_000, 8_000]);
    expect(durationTicks(0)).toEqual([0, 1000]);
  });
});
