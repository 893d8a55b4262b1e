import { groupLabel } from '../../report/group-key';
import type { ClaimRow, GroupKey, GroupReport } from '../../report/report-types';
import { boxChart, type BoxStats } from '../../report/render/charts/box-chart';
import { scatterChart } from '../../report/render/charts/scatter-chart';
import { durationTicks } from '../../report/render/charts/scale';
import { humanDuration } from '../../shared/human-duration';
import { boxStats } from './box-stats';
import { cell, type ExplorerChart } from './explorer-chart';
import { paretoFront } from './pareto-front';

/** A group's verdicts (failed verifications record no usage or duration). */
export interface GroupVerdicts {
  key: GroupKey;
  verdicts: readonly ClaimRow[];
}

const STAT_COLUMNS = ['n', 'min', 'q1', 'median', 'q3', 'max', 'mean'];
function statCells(box: BoxStats | null, format: (value: number) => string | number = cell): (string | number)[] {
  return box ? [box.n, ...[box.min, box.q1, box.median, box.q3, box.max, box.mean].map(format)] : [0, '–', '–', '–', '–', '–', '–'];
}

/** LLM and tool calls per claim as distributions (box plots), one row per group. */
export function callsDistributionChart(groups: readonly GroupVerdicts[]): ExplorerChart {
  const stats = groups.map((g) => ({ g, llm: boxStats(g.verdicts.map((row) => row.llmCalls)), tool: boxStats(g.verdicts.map((row) => row.toolCalls)) }));
  return {
    id: 'calls',
    title: 'LLM and tool calls per claim',
    svg: boxChart({
      title: 'LLM and tool calls per claim (box: quartiles, bar: median, circle: mean)',
      series: ['LLM calls', 'tool calls'],
      rows: stats.map(({ g, llm, tool }) => ({ label: groupLabel(g.key), boxes: [llm, tool] })),
      axisLabel: 'calls per claim',
    }),
    table: {
      columns: ['group', 'calls', ...STAT_COLUMNS],
      rows: stats.flatMap(({ g, llm, tool }) => [
        [groupLabel(g.key), 'LLM', ...statCells(llm)],
        [groupLabel(g.key), 'tool', ...statCells(tool)],
      ]),
    },
  };
}

/** Wall time per verification as a distribution, in human units. */
export function latencyChart(groups: readonly GroupVerdicts[]): ExplorerChart {
  const stats = groups.map((g) => ({ g, box: boxStats(g.verdicts.map((row) => row.durationMs)) }));
  return {
    id: 'latency',
    title: 'Time per verification',
    svg: boxChart({
      title: 'Time per verification (box: quartiles, bar: median, circle: mean)',
      series: ['duration'],
      rows: stats.map(({ g, box }) => ({ label: groupLabel(g.key), boxes: [box] })),
      axisLabel: 'time per verification',
      format: (ms) => (ms === 0 ? '0' : humanDuration(ms)),
      ticks: durationTicks,
    }),
    table: { columns: ['group', ...STAT_COLUMNS], rows: stats.map(({ g, box }) => [groupLabel(g.key), ...statCells(box, humanDuration)]) },
  };
}

/**
 * Cost per claim against macro-F1, or mean tokens per claim when the groups recorded no cost (a
 * local model costs $0), with the Pareto front of each dataset's methods × models; the line is
 * drawn when the chart shows one dataset.
 */
export function efficiencyChart(groups: readonly GroupReport[]): ExplorerChart {
  const byCost = groups.some((g) => g.usage.mean.costUsd > 0);
  const xOf = (g: GroupReport) => (byCost ? g.usage.mean.costUsd : g.usage.mean.totalTokens);
  const onFront = new Set<GroupReport>();
  for (const dataset of new Set(groups.map((g) => g.key.dataset))) {
    const same = groups.filter((g) => g.key.dataset === dataset);
    for (const i of paretoFront(same.map((g) => ({ x: xOf(g), y: g.macroF1.estimate })))) onFront.add(same[i] as GroupReport);
  }
  const methods = [...new Set(groups.map((g) => g.key.method))];
  const oneDataset = new Set(groups.map((g) => g.key.dataset)).size === 1;
  const xLabel = byCost ? 'cost per claim (USD)' : 'tokens per claim (mean)';
  return {
    id: byCost ? 'cost' : 'tokens',
    title: byCost ? 'Cost per claim against macro-F1' : 'Tokens per claim against macro-F1 (no cost recorded)',
    svg: scatterChart({
      title: byCost ? 'Cost per claim against macro-F1' : 'Tokens per claim against macro-F1',
      points: groups.map((g) => ({ label: groupLabel(g.key), x: xOf(g), y: g.macroF1.estimate, series: methods.indexOf(g.key.method) })),
      xLabel,
      yLabel: 'macro-F1',
      yMax: 1,
      ...(oneDataset ? { front: groups.filter((g) => onFront.has(g)).map((g) => ({ x: xOf(g), y: g.macroF1.estimate })), frontLabel: 'Pareto front' } : {}),
    }),
    table: {
      columns: ['group', xLabel, 'macro-F1', 'on the Pareto front'],
      rows: groups.map((g) => [groupLabel(g.key), byCost ? Number(xOf(g).toPrecision(3)) : cell(xOf(g)), cell(g.macroF1.estimate), onFront.has(g) ? 'yes' : 'no']),
    },
  };
}
