import type { ReviewedMetrics } from '../report-types';
import type { Table } from './report-tables';

/** One sentence on the reviews behind the reviewed metrics. */
export function reviewedNote(reviewed: ReviewedMetrics): string {
  const disputed = reviewed.disputedClaims.length;
  return (
    `${reviewed.reviews} review(s) by ${reviewed.reviewers.length} reviewer(s) in \`verity view\`: ${reviewed.verdictMarks.right} verdict(s) marked right, ${reviewed.verdictMarks.wrong} marked wrong. ` +
    (disputed === 0
      ? 'No gold label is disputed, so the metrics below equal those above.'
      : `${disputed} claim(s) have a disputed gold label; the metrics below set them aside in every method and model (the table above scores every gold label). Export the reviews with \`verity reviews export\`.`)
  );
}

/** The claims whose gold label reviewers disputed, with each reviewer's reason. */
export function disputedTable(reviewed: ReviewedMetrics): Table {
  return {
    header: ['dataset', 'claim', 'reviewer', 'reason'],
    rows: reviewed.disputedClaims.flatMap((claim) => claim.reasons.map((reason) => [claim.dataset, claim.claimId, reason.reviewer, reason.reason])),
  };
}
