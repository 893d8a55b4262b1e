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

/** `dataset` + claim id: the key of a run's claim (claim ids are unique per dataset only). */
function claimKey(dataset: string, claimId: string): string {
  return `${dataset}\u0000${claimId}`;
}

/** Claim text and gold label of the given claims of a run (one page's worth), by claimKey. */
async function claimsOf(client: Client, index: string, runId: string, claimIds: string[]): Promise<Map<string, { claim: string; gold: string }>> {
  const unique = [...new Set(claimIds)];
  const found = new Map<string, { claim: string; gold: string }>();
  if (unique.length === 0) return found;
  try {
    const response = await client.search<{ claimId?: string; dataset?: string; claim?: string; labelNorm?: string }>({
      index,
      // A claim id may name one claim in each dataset of the run.
      size: Math.min(10_000, unique.length * 10),
      query: { bool: { filter: [{ term: { runId } }, { terms: { claimId: unique } }] } },
      _source: ['claimId', 'dataset', 'claim', 'labelNorm'],
    });
    for (const hit of response.hits.hits) {
      const source = hit._source;
      if (source?.claimId) found.set(claimKey(source.dataset ?? '', source.claimId), { claim: source.claim ?? '', gold: source.labelNorm ?? '' });
    }
  } catch (err) {
    if (!isIndexNotFound(err)) throw err;
  }
  return found;
}

/** The variants a sweep verifies: a verdict of another (method, model) is not the sweep's. */
export interface SweepVariants {
  methods: readonly string[];
  models: readonly string[];
  /** The run's claims are stored (runs recorded before run-claims existed have none): a verdict must be of one. */
  claims: boolean;
}

/**
 * Every verification of a run as export rows, one page at a time (bounded memory whatever the
 * run's size): its verdicts, then its failures that have no verdict (a retry may have fixed them).
 * Both are read with a point in time and search_after. With `variants`, only the sweep's own
 * verdicts are exported (its claims × variants); others stored under the run id are counted as skipped.
 */
export async function* streamRunRows(
  client: Client,
  prefix: string,
  runId: string,
  stats: ExportStats,
  pageSize = DEFAULT_PAGE_SIZE,
  variants?: SweepVariants,
): AsyncGenerator<ExportRow[]> {
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
    const own = variants
      ? verdicts.filter((v) => {
          const ours = variants.methods.includes(v.method) && variants.models.includes(v.model) && (!variants.claims || claims.has(claimKey(v.dataset, v.claimId)));
          if (!ours) skip(`verdict ${v.workflowId}`, "not of the sweep's own (claim, method, model) set");
          return ours;
        })
      : verdicts;
    stats.verdicts += own.length;
    yield own.map((verdict) => verdictRow(verdict, claims.get(claimKey(verdict.dataset, verdict.claimId))?.gold ?? '', verdictsIndex));
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
    yield open.map((failure) => failureRow(failure, claims.get(claimKey(failure.dataset, failure.claimId)), LIMIT_REACHED_TYPE));
  }
}
