import type { Client } from '@elastic/elasticsearch';
import type { SampleStats, UsageStats } from './plan-figures';

/** Fewer stored verdicts than this for a (method, model) and the plan runs a pilot instead. */
export const MIN_EARLIER_VERDICTS = 3;

interface ExtendedStats {
  count: number;
  avg: number | null;
  std_deviation_sampling?: number | null;
  std_deviation: number | null;
}

function sampleStats(stats: ExtendedStats): SampleStats {
  return { count: stats.count, mean: stats.avg ?? 0, sd: stats.std_deviation_sampling ?? stats.std_deviation ?? 0 };
}

/**
 * Per-claim usage of the verdicts stored by earlier runs, per `<method>\u0000<model>`, for the
 * (method, model) pairs with at least MIN_EARLIER_VERDICTS of them.
 */
export async function earlierRunStats(
  es: Client,
  verdictIndex: string,
  pairs: { method: string; model: string }[],
  options: { excludeRunIds?: string[] } = {},
): Promise<Map<string, UsageStats & { verdicts: number }>> {
  const found = new Map<string, UsageStats & { verdicts: number }>();
  if (!(await es.indices.exists({ index: verdictIndex }))) return found;
  await es.indices.refresh({ index: verdictIndex });
  const excluded = options.excludeRunIds && options.excludeRunIds.length > 0 ? { must_not: [{ terms: { runId: options.excludeRunIds } }] } : {};
  for (const { method, model } of pairs) {
    const response = await es.search({
      index: verdictIndex,
      size: 0,
      query: { bool: { filter: [{ term: { method } }, { term: { model } }, { exists: { field: 'usage.llmCalls' } }], ...excluded } },
      aggs: {
        llmCalls: { extended_stats: { field: 'usage.llmCalls' } },
        promptTokens: { extended_stats: { field: 'usage.promptTokens' } },
        completionTokens: { extended_stats: { field: 'usage.completionTokens' } },
      },
    });
    const aggs = response.aggregations as Record<'llmCalls' | 'promptTokens' | 'completionTokens', ExtendedStats> | undefined;
    if (!aggs || aggs.llmCalls.count < MIN_EARLIER_VERDICTS) continue;
    found.set(pairKey(method, model), {
      verdicts: aggs.llmCalls.count,
      llmCalls: sampleStats(aggs.llmCalls),
      promptTokens: sampleStats(aggs.promptTokens),
      completionTokens: sampleStats(aggs.completionTokens),
    });
  }
  return found;
}

export function pairKey(method: string, model: string): string {
  return `${method}\u0000${model}`;
}

/** Runs whose manifest says the embedded simulator answered them: their figures say nothing of a real endpoint. */
export async function simulatorRunIds(es: Client, runsIndex: string): Promise<string[]> {
  if (!(await es.indices.exists({ index: runsIndex }))) return [];
  const response = await es.search({ index: runsIndex, size: 10_000, query: { term: { llmProvider: 'simulator' } }, _source: false });
  return response.hits.hits.map((hit) => hit._id!).filter((id) => id !== undefined);
}
