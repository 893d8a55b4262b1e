import { describe, expect, it } from 'vitest';
import { buildReport, renderMarkdown } from '../../src/report';
import type { ReviewDocument } from '../../src/review/review-schema';
import { reviewedMetrics } from '../../src/review/reviewed-metrics';
import { goldLabels, runA } from '../support/report-fixtures';

const review = (over: Partial<ReviewDocument>): ReviewDocument => ({
  runId: 'run-a', workflowId: 'wf', claimId: 'c1', dataset: 'hover', method: 'rag', model: 'm1', predicted: 'SUPPORTED', gold: 'SUPPORTED',
  reviewer: 'alice', reviewedAt: '2026-11-29T00:00:00.000Z', verdictMark: null, goldDisputed: false, disputeReason: '', note: '', ...over,
});

describe('reviewedMetrics', () => {
  const options = { bootstrap: { resamples: 20 } };
  const report = buildReport(runA(), goldLabels(), options);
  const hover = (groups: typeof report.groups) => groups.find((g) => g.key.dataset === 'hover')!;

  it('sets a disputed claim aside: hover scores 3 right of 5 instead of 3 of 6 without the wrongly answered c2', () => {
    const reviewed = reviewedMetrics(report, [review({ claimId: 'c2', goldDisputed: true, disputeReason: 'mislabelled', verdictMark: 'right' }), review({ claimId: 'c1', reviewer: 'bob', verdictMark: 'wrong' })], options.bootstrap);
    expect(hover(report.groups).accuracy.estimate).toBeCloseTo(3 / 6, 12);
    expect(hover(reviewed.groups).counts.scored).toBe(5);
    expect(hover(reviewed.groups).accuracy.estimate).toBeCloseTo(3 / 5, 12);
    expect(reviewed).toMatchObject({ reviews: 2, reviewers: ['alice', 'bob'], verdictMarks: { right: 1, wrong: 1 }, disputedClaims: [{ dataset: 'hover', claimId: 'c2', reasons: [{ reviewer: 'alice', reason: 'mislabelled' }] }] });
  });

  it('matches claims by dataset and id, and counts each disputing reviewer', () => {
    const reviewed = reviewedMetrics(report, [review({ dataset: 'other', claimId: 'c2', goldDisputed: true, disputeReason: 'x' })], options.bootstrap);
    expect(hover(reviewed.groups).counts.scored).toBe(6);
    const twice = reviewedMetrics(report, [review({ claimId: 'c3', goldDisputed: true, disputeReason: 'a' }), review({ claimId: 'c3', reviewer: 'bob', goldDisputed: true, disputeReason: 'b' })]);
    expect(twice.disputedClaims).toEqual([{ dataset: 'hover', claimId: 'c3', reasons: [{ reviewer: 'alice', reason: 'a' }, { reviewer: 'bob', reason: 'b' }] }]);
  });

  it('report.md shows both tables and the reasons as inert text', () => {
    const reviewed = reviewedMetrics(report, [review({ claimId: 'c2', goldDisputed: true, disputeReason: '<script>x</script> | pipe' })], options.bootstrap);
    const markdown = renderMarkdown({ ...report, reviewed });
    expect(markdown).toContain('### With disputed gold labels set aside');
    expect(markdown).toContain('&lt;script&gt;x&lt;/script&gt; \\| pipe');
    expect(markdown).not.toContain('<script>');
  });
});
