import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { ensureIndex } from '../es/ensure-index';
import type { RunClaim } from '../shared/sweep';
import { RUN_CLAIMS_INDEX } from './run-indices';

const runClaimSchema = z.object({
  runId: z.string(),
  ordinal: z.number().int().nonnegative(),
  claimId: z.string(),
  dataset: z.string(),
  datasetPosition: z.number().int().nonnegative(),
  claim: z.string(),
  label: z.union([z.string(), z.boolean()]),
  labelNorm: z.string(),
  stratum: z.string().optional(),
});

const BULK_CHUNK = 500;

/** A run's claims in `<prefix>-run-claims` (`_id` = `<run>/<ordinal>`), so workflows pass only cursors. */
export class RunClaimStore {
  private ready = false;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  /** Idempotent: the same run always writes the same documents under the same ids. */
  async storeAll(claims: RunClaim[]): Promise<void> {
    await this.ensureIndex();
    for (let start = 0; start < claims.length; start += BULK_CHUNK) {
      const chunk = claims.slice(start, start + BULK_CHUNK);
      const response = await this.client.bulk({
        operations: chunk.flatMap((claim) => [{ index: { _index: this.index, _id: `${claim.runId}/${claim.ordinal}` } }, claim]),
        refresh: 'wait_for',
      });
      if (response.errors) {
        const failed = response.items.find((item) => item.index?.error);
        throw new Error(`storing the run's claims failed: ${failed?.index?.error?.reason ?? 'unknown bulk error'}`);
      }
    }
  }

  /**
   * Claims with ordinals in [fromOrdinal, fromOrdinal + size), in order; with `maxBytes`, only as
   * many as fit in that much JSON (at least one), so that a page always crosses Temporal in one
   * payload (2 MB at most).
   */
  async page(runId: string, fromOrdinal: number, size: number, maxBytes = Infinity): Promise<RunClaim[]> {
    await this.ensureIndex();
    const response = await this.client.search({
      index: this.index,
      size,
      query: { bool: { filter: [{ term: { runId } }, { range: { ordinal: { gte: fromOrdinal, lt: fromOrdinal + size } } }] } },
      sort: [{ ordinal: 'asc' }],
    });
    const claims: RunClaim[] = [];
    let bytes = 0;
    for (const hit of response.hits.hits) {
      const claim = runClaimSchema.parse(hit._source);
      bytes += Buffer.byteLength(JSON.stringify(claim));
      if (claims.length > 0 && bytes > maxBytes) break;
      claims.push(claim);
    }
    return claims;
  }

  /** The ordinal of a claim of the run (by id, and by dataset when given), or null when the run has no such claim. */
  async ordinalOf(runId: string, claimId: string, dataset?: string): Promise<number | null> {
    await this.ensureIndex();
    const filter = [{ term: { runId } }, { term: { claimId } }, ...(dataset === undefined ? [] : [{ term: { dataset } }])];
    const response = await this.client.search({ index: this.index, size: 1, query: { bool: { filter } }, sort: [{ ordinal: 'asc' }] });
    const hit = response.hits.hits[0];
    return hit ? runClaimSchema.parse(hit._source).ordinal : null;
  }

  async ensureIndex(): Promise<void> {
    if (this.ready) return;
    await ensureIndex(this.client, this.index, RUN_CLAIMS_INDEX);
    this.ready = true;
  }
}
