import type { Client } from '@elastic/elasticsearch';
import { ensureIndex, type IndexDefinition } from '../es/ensure-index';
import { indexName } from '../es/indices';
import { reviewDocumentId } from './review-id';
import { reviewDocumentSchema, type ReviewDocument } from './review-schema';

const keyword = { type: 'keyword' } as const;
const REVIEWS_INDEX: IndexDefinition = {
  mappings: {
    dynamic: 'strict',
    properties: {
      runId: keyword, workflowId: keyword, claimId: keyword, dataset: keyword, method: keyword, model: keyword, predicted: keyword, gold: keyword,
      reviewer: keyword, reviewedAt: { type: 'date' }, verdictMark: keyword, goldDisputed: { type: 'boolean' },
      disputeReason: { type: 'text' }, note: { type: 'text' },
    },
  },
};

/** Reviews of a run read at most this many at once (a run's reviews are written by hand). */
export const REVIEWS_READ_LIMIT = 10_000;

/** Human reviews in `<prefix>-reviews`: one document per reviewer × verification (see reviewDocumentId). */
export class ReviewStore {
  readonly index: string;

  constructor(
    private readonly client: Client,
    prefix: string,
  ) {
    this.index = indexName(prefix, 'reviews');
  }

  /** Stores the review, visible to the next read (a reload shows it). */
  async save(review: ReviewDocument): Promise<void> {
    await ensureIndex(this.client, this.index, REVIEWS_INDEX);
    const document = reviewDocumentSchema.parse(review);
    await this.client.index({ index: this.index, id: reviewDocumentId(document.runId, document.workflowId, document.reviewer), document, refresh: 'wait_for' });
  }

  /** Every reviewer's review of one verification, oldest first. */
  async forVerification(runId: string, workflowId: string): Promise<ReviewDocument[]> {
    return this.search({ bool: { filter: [{ term: { runId } }, { term: { workflowId } }] } });
  }

  /** The run's reviews (at most REVIEWS_READ_LIMIT), oldest first; none when the index does not exist yet. */
  async forRun(runId: string): Promise<ReviewDocument[]> {
    return this.search({ term: { runId } });
  }

  private async search(query: object): Promise<ReviewDocument[]> {
    const response = await this.client.search<unknown>(
      { index: this.index, query, size: REVIEWS_READ_LIMIT, sort: [{ reviewedAt: 'asc' }, { reviewer: 'asc' }] },
      { ignore: [404] },
    );
    if (!response.hits) return [];
    return response.hits.hits.map((hit) => reviewDocumentSchema.parse(hit._source));
  }
}
