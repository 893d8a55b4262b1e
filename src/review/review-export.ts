import { csvCell } from '../shared/csv-cell';
import type { ReviewDocument } from './review-schema';

export const REVIEW_EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ReviewExportFormat = (typeof REVIEW_EXPORT_FORMATS)[number];

const COLUMNS = ['runId', 'workflowId', 'dataset', 'claimId', 'method', 'model', 'predicted', 'gold', 'reviewer', 'reviewedAt', 'verdictMark', 'goldDisputed', 'disputeReason', 'note'] as const;

/** A run's reviews as JSON Lines (one review a line) or CSV (one row a review, the columns above). */
export function renderReviews(reviews: readonly ReviewDocument[], format: ReviewExportFormat): string {
  if (format === 'jsonl') return reviews.map((review) => JSON.stringify(review) + '\n').join('');
  return [COLUMNS, ...reviews.map((review) => COLUMNS.map((column) => review[column]))].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
