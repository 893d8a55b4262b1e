import { datasetLabel, groupLabel } from '../../report/group-key';
import type { GroupReport } from '../../report/report-types';
import { f1Chart, groupHeatmap } from '../../report/render/report-charts';
import { barChart } from '../../report/render/charts/bar-chart';
import { boxChart } from '../../report/render/charts/box-chart';
import { boxStats } from './box-stats';
import { cell, type ExplorerChart } from './explorer-chart';

const intervalColumns = (name: string) => [name, `${name} 95% low`, `${name} 95% high`];
const interval = (ci: GroupReport['accuracy']) => [cell(ci.estimate), cell(ci.lower), cell(ci.upper)];

/** The report's F1 chart over the groups (dataset × method × model) of the filtered verifications. */
export function f1ExplorerChart(groups: readonly GroupReport[]): ExplorerChart {
  return {
    id: 'f1',
    title: 'F1 by dataset, method and model',
    svg: f1Chart(groups),
    table: {
      columns: ['group', 'scored', ...intervalColumns('accuracy'), ...intervalColumns('macro-F1'), ...intervalColumns('weighted-F1')],
      rows: groups.map((g) => [groupLabel(g.key), g.counts.scored, ...interval(g.accuracy), ...interval(g.macroF1), ...interval(g.weightedF1)]),
    },
  };
}

/** Accuracy and macro-F1 per stratum (e.g. HoVer's num_hops) and method × model, with their intervals. */
export function strataChart(strata: readonly GroupReport[]): ExplorerChart {
  const label = (g: GroupReport) => `${g.key.stratum ? `${g.key.stratum.field}=${g.key.stratum.value}` : datasetLabel(g.key)} · ${g.key.method} · ${g.key.model}`;
  return {
    id: 'strata',
    title: 'Accuracy and macro-F1 per stratum',
    svg: barChart({
      title: 'Accuracy and macro-F1 per stratum (95% bootstrap CI)',
      series: ['accuracy', 'macro-F1'],
      rows: strata.map((g) => ({ label: label(g), bars: [g.accuracy, g.macroF1].map((ci) => ({ value: ci.estimate, lower: ci.lower, upper: ci.upper })) })),
      max: 1,
      axisLabel: 'score',
    }),
    table: {
      columns: ['dataset', 'stratum', 'method', 'model', 'scored', ...intervalColumns('accuracy'), ...intervalColumns('macro-F1')],
      rows: strata.map((g) => [g.key.dataset, g.key.stratum ? `${g.key.stratum.field}=${g.key.stratum.value}` : '', g.key.method, g.key.model, g.counts.scored, ...interval(g.accuracy), ...interval(g.macroF1)]),
    },
  };
}

/** Accuracy and macro-F1 of each repeat of a sweep with `repeats`, as a spread per group. */
export function repeatsChart(groups: readonly GroupReport[]): ExplorerChart {
  const repeated = groups.filter((g): g is GroupReport & { repeats: NonNullable<GroupReport['repeats']> } => g.repeats !== null);
  return {
    id: 'repeats',
    title: 'Spread across repeats',
    svg: boxChart({
      title: 'Accuracy and macro-F1 across repeats',
      series: ['accuracy per repeat', 'macro-F1 per repeat'],
      rows: repeated.map((g) => ({ label: groupLabel(g.key), boxes: [boxStats(g.repeats.accuracy.values), boxStats(g.repeats.macroF1.values)] })),
      axisLabel: 'score of one repeat',
    }),
    table: {
      columns: ['group', 'repeats', 'accuracy per repeat', 'accuracy mean', 'accuracy sd', 'macro-F1 per repeat', 'macro-F1 mean', 'macro-F1 sd'],
      rows: repeated.map((g) => [
        groupLabel(g.key),
        g.repeats.k,
        g.repeats.accuracy.values.map((v) => cell(v)).join(' '),
        cell(g.repeats.accuracy.mean),
        cell(g.repeats.accuracy.sd),
        g.repeats.macroF1.values.map((v) => cell(v)).join(' '),
        cell(g.repeats.macroF1.mean),
        cell(g.repeats.macroF1.sd),
      ]),
    },
  };
}

/** The report's confusion matrix of one group; the table has the counts, gold by row. */
export function confusionChart(group: GroupReport, index: number): ExplorerChart {
  const { labels, counts, invalid } = group.confusion;
  return {
    id: `confusion-${index}`,
    title: `Confusion matrix: ${groupLabel(group.key)}`,
    svg: groupHeatmap(group),
    table: {
      columns: ['gold \\ predicted', ...labels, 'invalid/failed'],
      rows: labels.map((label, r) => [label, ...(counts[r] ?? []), invalid[r] ?? 0]),
    },
  };
}
