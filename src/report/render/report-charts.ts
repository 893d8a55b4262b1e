import { groupLabel } from '../group-key';
import type { GroupReport } from '../report-types';
import { barChart } from './charts/bar-chart';
import { confusionHeatmap } from './charts/heatmap';
import { scatterChart } from './charts/scatter-chart';

/** Macro- and weighted-F1 per dataset × method × model, with bootstrap 95% CI whiskers. */
export function f1Chart(groups: readonly GroupReport[]): string {
  return barChart({
    title: 'F1 by dataset, method and model (95% bootstrap CI)',
    series: ['macro-F1', 'weighted-F1'],
    rows: groups.map((g) => ({
      label: groupLabel(g.key),
      bars: [g.macroF1, g.weightedF1].map((ci) => ({ value: ci.estimate, lower: ci.lower, upper: ci.upper })),
    })),
    max: 1,
    axisLabel: 'F1',
  });
}

/** Mean cost per claim against macro-F1, one point per group, coloured by method. */
export function costF1Chart(groups: readonly GroupReport[]): string {
  const methods = [...new Set(groups.map((g) => g.key.method))];
  return scatterChart({
    title: 'Cost per claim against macro-F1',
    points: groups.map((g) => ({
      label: groupLabel(g.key),
      x: g.usage.mean.costUsd,
      y: g.macroF1.estimate,
      series: methods.indexOf(g.key.method),
    })),
    xLabel: 'cost per claim (USD)',
    yLabel: 'macro-F1',
    yMax: 1,
  });
}

export function callsChart(groups: readonly GroupReport[]): string {
  return barChart({
    title: 'LLM and tool calls per claim',
    series: ['LLM calls / claim', 'tool calls / claim'],
    rows: groups.map((g) => ({ label: groupLabel(g.key), bars: [{ value: g.usage.mean.llmCalls }, { value: g.usage.mean.toolCalls }] })),
    axisLabel: 'calls per claim (mean)',
  });
}

export function groupHeatmap(group: GroupReport): string {
  return confusionHeatmap(group.confusion, `Confusion matrix: ${groupLabel(group.key)}`);
}
