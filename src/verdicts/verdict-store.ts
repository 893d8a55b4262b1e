import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { ensureIndex } from '../es/ensure-index';
import { VERDICT_LABELS } from '../shared/constants';
import { invalidLlmCallsOf } from '../shared/transcript';
import type { Verdict } from '../shared/verify';
import { VERDICT_INDEX } from './verdict-index';

const storedVerdictSchema = z
  .object({
    schemaVersion: z.literal(1),
    workflowId: z.string(),
    runId: z.string(),
    claimId: z.string(),
    method: z.string(),
    claim: z.string(),
    label: z.enum(VERDICT_LABELS),
    rationale: z.string(),
    model: z.string(),
  })
  .passthrough();

/** Verdicts in Elasticsearch, one document per verification keyed by its workflow id. */
export class VerdictStore {
  private ready = false;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  /**
   * Idempotent: storing the same verification again overwrites the same document. It does not
   * wait for a refresh (about a second): sweeps and `get` find verdicts by id in real time, and
   * readers that search (reports) refresh first.
   */
  async store(verdict: Verdict): Promise<void> {
    await this.ensureIndex();
    await this.client.index({
      index: this.index,
      id: verdict.workflowId,
      // invalidLlmCalls: searchable, as the transcript is stored but not indexed (the explorer's status filter).
      document: { ...verdict, invalidLlmCalls: invalidLlmCallsOf(verdict.transcript), storedAt: new Date().toISOString() },
    });
  }

  async get(workflowId: string): Promise<Verdict | undefined> {
    await this.ensureIndex();
    const response = await this.client.get({ index: this.index, id: workflowId }, { ignore: [404] });
    if (!response.found) return undefined;
    return storedVerdictSchema.parse(response._source) as unknown as Verdict;
  }

  /** Token and cost usage of the verdicts that exist among `workflowIds` (one request). */
  async findUsage(workflowIds: string[]): Promise<Record<string, { tokens: number; costUsd: number }>> {
    if (workflowIds.length === 0) return {};
    await this.ensureIndex();
    const response = await this.client.mget<{ usage?: { totalTokens?: number; costUsd?: number } }>({
      index: this.index,
      ids: workflowIds,
      _source_includes: ['usage.totalTokens', 'usage.costUsd'],
    });
    const found: Record<string, { tokens: number; costUsd: number }> = {};
    for (const doc of response.docs) {
      if ('found' in doc && doc.found) found[doc._id] = { tokens: doc._source?.usage?.totalTokens ?? 0, costUsd: doc._source?.usage?.costUsd ?? 0 };
    }
    return found;
  }

  /**
   * The claim texts stored under this run and claim id (any method or setting). Waits for the index
   * to be ready first: another process may have just created it, and searching a shard that is not
   * active yet fails (search_phase_execution_exception).
   */
  async claimsNamed(runId: string, claimId: string): Promise<string[]> {
    await this.ensureIndex();
    const search = () =>
      this.client.search<Pick<Verdict, 'claim'>>({
        index: this.index,
        size: 20,
        _source: ['claim'],
        query: { bool: { filter: [{ term: { runId } }, { term: { claimId } }] } },
      });
    // A shard that another process has just created can still answer 503 for a moment: a few bounded retries.
    let response: Awaited<ReturnType<typeof search>>;
    for (let attempt = 1; ; attempt += 1) {
      try {
        response = await search();
        break;
      } catch (err) {
        if (attempt >= 10 || (err as { statusCode?: number }).statusCode !== 503) throw err;
        await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
      }
    }
    return [...new Set((response.hits?.hits ?? []).flatMap((hit) => (hit._source ? [hit._source.claim] : [])))];
  }

  async countForRun(runId: string): Promise<number> {
    await this.ensureIndex();
    await this.client.indices.refresh({ index: this.index });
    const response = await this.client.count({ index: this.index, query: { term: { runId } } });
    return response.count;
  }

  async ensureIndex(): Promise<void> {
    if (this.ready) return;
    await ensureIndex(this.client, this.index, VERDICT_INDEX);
    this.ready = true;
  }
}
