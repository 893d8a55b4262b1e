import { runDatasetScheme } from '../../report/dataset-scheme';
import { buildGroupReport } from '../../report/group-report';
import { groupBy, groupLabel } from '../../report/group-key';
import type { ClaimRow, GroupKey } from '../../report/report-types';
import type { RunManifest } from '../../runs/run-manifest';
import type { BootstrapOptions } from '../../metrics';
import { confusionChart, f1ExplorerChart, repeatsChart, strataChart } from './accuracy-charts';
import type { ExplorerChart } from './explorer-chart';
import { learningCurveChart, type LearningSeries } from './learning-chart';
import { callsDistributionChart, efficiencyChart, latencyChart } from './usage-charts';

export interface ExplorerChartsInput {
  /** The verifications the explorer's filters select, as the report joins them with their gold labels. */
  rows: readonly ClaimRow[];
  manifest: Pick<RunManifest, 'config'>;
  /** Verifications of a learning method (ToE online) by workflow id: their place in the order the policy saw them. */
  learningOrder?: ReadonlyMap<string, number>;
  bootstrap?: BootstrapOptions;
}

/** The explorer's charts of the filtered verifications, computed as the report computes its groups. Pure. */
export function explorerCharts(input: ExplorerChartsInput): ExplorerChart[] {
  const protocol = input.manifest.config.protocol ?? 'verity';
  const grouped = groupBy(input.rows);
  const groups = grouped.map(({ key, items }) => buildGroupReport(key, items, input.bootstrap, runDatasetScheme(input.manifest, key.dataset), protocol));
  const main = groups.filter((g) => g.key.stratum === undefined);
  if (main.length === 0) return [];
  const strata = groups.filter((g) => g.key.stratum !== undefined);
  const verdicts = grouped.filter(({ key }) => key.stratum === undefined).map(({ key, items }) => ({ key, verdicts: items.filter((row) => row.status === 'verdict') }));
  const learning = learningSeries(grouped.filter(({ key }) => key.stratum === undefined), input.learningOrder);
  return [
    f1ExplorerChart(main),
    ...(strata.length > 0 ? [strataChart(strata)] : []),
    efficiencyChart(main),
    callsDistributionChart(verdicts),
    latencyChart(verdicts),
    ...(main.some((g) => g.repeats !== null) ? [repeatsChart(main)] : []),
    ...(learning.length > 0 ? [learningCurveChart(learning)] : []),
    ...main.map((g, i) => confusionChart(g, i)),
  ];
}

function learningSeries(groups: readonly { key: GroupKey; items: ClaimRow[] }[], order: ReadonlyMap<string, number> | undefined): LearningSeries[] {
  if (!order || order.size === 0) return [];
  return groups.flatMap(({ key, items }) => {
    const steps = items.flatMap((row) => {
      const position = row.workflowId === null ? undefined : order.get(row.workflowId);
      return position !== undefined && row.correct !== null ? [{ order: position, correct: row.correct }] : [];
    });
    return steps.length > 0 ? [{ label: groupLabel(key), steps }] : [];
  });
}
