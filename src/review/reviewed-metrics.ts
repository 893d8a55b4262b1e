import type { BootstrapOptions } from '../metrics';
import { buildGroupReport, groupBy, type ReviewedMetrics, type RunReport } from '../report';
import { runDatasetScheme } from '../report/dataset-scheme';
import type { ReviewDocument } from './review-schema';

const claimKey = (dataset: string, claimId: string) => JSON.stringify([dataset, claimId]);

/**
 * The report's metrics again with every claim whose gold label a reviewer disputed set aside (in
 * every method and model: a gold label belongs to the claim). Pure.
 */
export function reviewedMetrics(report: RunReport, reviews: readonly ReviewDocument[], bootstrap?: BootstrapOptions): ReviewedMetrics {
  const disputed = new Map<string, ReviewedMetrics['disputedClaims'][number]>();
  for (const review of reviews) {
    if (!review.goldDisputed) continue;
    const key = claimKey(review.dataset, review.claimId);
    const entry = disputed.get(key) ?? { dataset: review.dataset, claimId: review.claimId, reasons: [] };
    entry.reasons.push({ reviewer: review.reviewer, reason: review.disputeReason });
    disputed.set(key, entry);
  }
  const kept = report.claims.filter((row) => !disputed.has(claimKey(row.dataset, row.claimId)));
  return {
    reviews: reviews.length,
    reviewers: [...new Set(reviews.map((review) => review.reviewer))].sort(),
    verdictMarks: { right: reviews.filter((r) => r.verdictMark === 'right').length, wrong: reviews.filter((r) => r.verdictMark === 'wrong').length },
    disputedClaims: [...disputed.values()].sort((a, b) => a.dataset.localeCompare(b.dataset) || a.claimId.localeCompare(b.claimId)),
    groups: groupBy(kept).map(({ key, items }) => buildGroupReport(key, items, bootstrap, runDatasetScheme(report.manifest, key.dataset), report.protocol)),
  };
}
