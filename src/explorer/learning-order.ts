import type { Client } from '@elastic/elasticsearch';
import { indexName } from '../es/indices';
import { searchPages } from '../runs/search-all';

/** Methods whose verdicts carry an online policy's trace (ToE): their learning curve is drawn. */
export const LEARNING_METHODS = ['toe'];

interface OnlineVerdict {
  workflowId: string;
  finishedAt?: string;
  trace?: { online?: { claimOrder?: { position?: number } } };
}

/**
 * Verdicts of a run's online learners, by workflow id: their position in the run's claim order
 * (claim-order schedule), else their finish time, the order the policy learned in. Read page by page
 * (point in time + search_after), so a run of any size is covered, not only a search's first 10,000 hits.
 */
export async function learningOrder(client: Client, prefix: string, runId: string, options: { pageSize?: number } = {}): Promise<Map<string, number>> {
  const order = new Map<string, number>();
  const pages = searchPages(client, indexName(prefix, 'verdicts'), { bool: { must: [{ term: { runId } }, { terms: { method: LEARNING_METHODS } }] } }, {
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    sourceIncludes: ['workflowId', 'finishedAt', 'trace.online'],
  });
  for await (const page of pages) {
    for (const source of page as (OnlineVerdict | undefined)[]) {
      const online = source?.trace?.online;
      if (!source || !online) continue;
      const position = online.claimOrder?.position ?? (source.finishedAt ? Date.parse(source.finishedAt) : Number.NaN);
      if (Number.isFinite(position)) order.set(source.workflowId, position);
    }
  }
  return order;
}
