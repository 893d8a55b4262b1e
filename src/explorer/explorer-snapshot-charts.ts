import type { ExplorerChartsAnswer } from './explorer-chart-source';
import type { ExplorerSource, ExplorerSummary } from './explorer-data';
import { explorerFilterSchema } from './explorer-filter';

/** Chart sets embedded in explorer.html: at most this many filter combinations. */
export const MAX_EMBEDDED_CHART_SETS = 24;

/** The offline page's charts by `chartSetKey` of the method, model and dataset filters. */
export interface EmbeddedCharts {
  sets: Record<string, ExplorerChartsAnswer>;
}

/** The key of a combination of the facet filters ('' = all), as the offline page's script builds it. */
export function chartSetKey(method = '', model = '', dataset = ''): string {
  return JSON.stringify([method, model, dataset]);
}

/**
 * The facet combinations the offline page draws charts for: every combination of method, model and
 * dataset (each also "all") while there are at most `max`, else "all" and each value of one facet.
 */
export function chartCombinations(facets: Pick<ExplorerSummary['facets'], 'method' | 'model' | 'dataset'>, max = MAX_EMBEDDED_CHART_SETS): [string, string, string][] {
  const withAll = (values: string[]) => ['', ...values];
  const all: [string, string, string][] = withAll(facets.method).flatMap((method) => withAll(facets.model).flatMap((model) => withAll(facets.dataset).map((dataset): [string, string, string] => [method, model, dataset])));
  if (all.length <= max) return all;
  return all.filter((combination) => combination.filter((value) => value !== '').length <= 1).slice(0, max);
}

/** The run's charts for each facet combination (the whole run, not only the verifications the page embeds). */
export async function snapshotCharts(source: ExplorerSource, summary: ExplorerSummary): Promise<EmbeddedCharts | undefined> {
  if (!source.charts) return undefined;
  const sets: EmbeddedCharts['sets'] = {};
  for (const [method, model, dataset] of chartCombinations(summary.facets)) {
    const filter = explorerFilterSchema.parse({ ...(method ? { method } : {}), ...(model ? { model } : {}), ...(dataset ? { dataset } : {}) });
    const answer = await source.charts(filter);
    if (answer.charts.length > 0) sets[chartSetKey(method, model, dataset)] = answer;
  }
  return { sets };
}
