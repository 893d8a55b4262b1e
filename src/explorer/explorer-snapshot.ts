import { explorerFilterSchema } from './explorer-filter';
import type { ExplorerSource } from './explorer-data';
import type { EmbeddedExplorer } from './explorer-page';
import { snapshotCharts } from './explorer-snapshot-charts';
import type { ReviewDocument } from '../review/review-schema';

/** Verifications embedded in explorer.html by default (each with its transcript and cached messages). */
export const DEFAULT_EMBEDDED_CLAIMS = 200;
/** Checked documents embedded whole (text and claims): the newest of the run. */
export const DEFAULT_EMBEDDED_DOCUMENTS = 20;
/** Characters of each cached message or raw response kept in the offline page. */
const EMBEDDED_TEXT_CHARS = 6_000;

/** The first `limit` verifications of a run with their transcripts and reviews, the latest failures, the newest checked documents and the run's charts, read page by page. */
export async function explorerSnapshot(
  source: ExplorerSource,
  limit = DEFAULT_EMBEDDED_CLAIMS,
  documentLimit = DEFAULT_EMBEDDED_DOCUMENTS,
  reviews: readonly ReviewDocument[] = [],
): Promise<EmbeddedExplorer> {
  const summary = await source.summary();
  const rows: EmbeddedExplorer['rows'] = [];
  const claims: EmbeddedExplorer['claims'] = {};
  while (rows.length < limit) {
    const page = await source.claims(explorerFilterSchema.parse({ from: rows.length, size: Math.min(100, limit - rows.length) }));
    rows.push(...page.rows);
    for (const row of page.rows) {
      const claim = await source.claim(row.workflowId);
      if (claim) claims[row.workflowId] = { ...claim, calls: clipCalls(claim.calls) };
    }
    if (page.rows.length === 0 || rows.length >= page.total) break;
  }
  const { failures } = await source.failures(0, limit);
  const charts = await snapshotCharts(source, summary);
  // Only the embedded verifications' reviews: the page shows them with their transcripts.
  const embeddedReviews = reviews.filter((review) => Object.hasOwn(claims, review.workflowId));
  return {
    summary,
    rows,
    claims,
    failures,
    documents: await documentsSnapshot(source, documentLimit),
    ...(charts ? { charts } : {}),
    ...(embeddedReviews.length > 0 ? { reviews: embeddedReviews } : {}),
  };
}

async function documentsSnapshot(source: ExplorerSource, limit: number): Promise<EmbeddedExplorer['documents']> {
  const { total, documents: rows } = limit > 0 ? await source.documents(0, limit) : { ...(await source.documents(0, 1)), documents: [] };
  const verdicts: EmbeddedExplorer['documents']['verdicts'] = {};
  for (const row of rows) {
    const verdict = await source.document(row.documentId);
    if (verdict) verdicts[row.documentId] = verdict;
  }
  return { total, rows, verdicts };
}

function clipCalls(calls: EmbeddedExplorer['claims'][string]['calls']): EmbeddedExplorer['claims'][string]['calls'] {
  const clip = (text: string) => (text.length <= EMBEDDED_TEXT_CHARS ? text : `${text.slice(0, EMBEDDED_TEXT_CHARS)}… (clipped; verity view shows it whole)`);
  return Object.fromEntries(
    Object.entries(calls).map(([hash, call]) => [
      hash,
      { ...call, ...(call.messages ? { messages: call.messages.map((m) => ({ ...m, content: clip(m.content) })) } : {}), ...(call.rawResponse !== undefined ? { rawResponse: clip(call.rawResponse) } : {}) },
    ]),
  );
}
