import type { Client } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../../es/client';
import { indexName } from '../../es/indices';
import { LIMIT_REACHED_TYPE } from '../../shared/verification-limits';
import { searchPages } from '../search-all';
import { type ExportRow, exportedFailureSchema, exportedVerdictSchema, failureRow, verdictRow } from './export-row';

export interface ExportStats {
  verdicts: number;
  failures: number;
  /** Stored documents that did not validate; each is named in `problems` (the first few). */
  skipped: number;
  problems: string[];
}

const MAX_PROBLEMS = 5;
const DEFAULT_PAGE_SIZE = 1000;

/** Claim text and gold label of the given claims of a run (one page's worth). */
async function claimsOf(client: Client, index: string, runId: string, claimIds: string[]): Promise<Map<string, { claim: string; gold: string }>> {
  const unique = [...new Set(claimIds)];
  const found = new Map<string, { claim: string; gold: string }>();
  if (unique.length === 0) return found;
  try {
    const response = await client.search<{ claimId?: string; claim?: string; labelNorm?: string }>({
      index,
      size: unique.length,
      query: { bool: { filter: [{ term: { runId } }, { terms: { claimId: unique } }] } },
      _source: ['claimId', 'claim', 'labelNorm'],
    });
    for (const hit of response.hits.hits) {
      const source = hit._source;
      if (source?.claimId) found.set(source.claimId, { claim: source.claim ?? '', gold: source.labelNorm ?? '' });
    }
  } catch (err) {
    if (!isIndexNotFound(err)) throw err;
  }
  return found;
}

/**
 * Every verification of a run as export rows, one page at a time (bounded memory whatever the
 * run's size): its verdicts, then its failures that have no verdict (a retry may have fixed them).
 * Both are read with a point in time and search_after.
 */
export async function* streamRunRows(client: Client, prefix: string, runId: string, stats: ExportStats, pageSize = DEFAULT_PAGE_SIZE): AsyncGenerator<ExportRow[]> {
  const verdictsIndex = indexName(prefix, 'verdicts');
  const claimsIndex = indexName(prefix, 'run-claims');
  const skip = (what: string, issue: string) => {
    stats.skipped += 1;
    if (stats.problems.length < MAX_PROBLEMS) stats.problems.push(`${what}: ${issue}`);
  };

  const query = { term: { runId } };
  const heavy = ['trace', 'evidence', 'rationale', 'citedPassageIds'];
  for await (const page of searchPages(client, verdictsIndex, query, { pageSize, sourceExcludes: heavy })) {
    const verdicts = page.flatMap((doc) => {
      const parsed = exportedVerdictSchema.safeParse(doc);
      if (parsed.success) return [parsed.data];
      skip(`verdict ${(doc as { workflowId?: string }).workflowId ?? '?'}`, parsed.error.issues[0]?.message ?? 'invalid');
      return [];
    });
    const claims = await claimsOf(client, claimsIndex, runId, verdicts.map((v) => v.claimId));
    stats.verdicts += verdicts.length;
    yield verdicts.map((verdict) => verdictRow(verdict, claims.get(verdict.claimId)?.gold ?? '', verdictsIndex));
  }

  for await (const page of searchPages(client, indexName(prefix, 'run-failures'), query, { pageSize })) {
    const failures = page.flatMap((doc) => {
      const parsed = exportedFailureSchema.safeParse(doc);
      if (parsed.success) return [parsed.data];
      skip(`failure ${(doc as { workflowId?: string }).workflowId ?? '?'}`, parsed.error.issues[0]?.message ?? 'invalid');
      return [];
    });
    if (failures.length === 0) continue;
    const verified = await client.mget({ index: verdictsIndex, ids: failures.map((f) => f.workflowId), _source: false });
    const withVerdict = new Set(verified.docs.flatMap((doc) => ('found' in doc && doc.found ? [doc._id] : [])));
    const open = failures.filter((failure) => !withVerdict.has(failure.workflowId));
    const claims = await claimsOf(client, claimsIndex, runId, open.map((f) => f.claimId));
    stats.failures += open.length;
    yield open.map((failure) => failureRow(failure, claims.get(failure.claimId), LIMIT_REACHED_TYPE));
  }
}
