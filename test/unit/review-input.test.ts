import { describe, expect, it } from 'vitest';
import { renderReviews } from '../../src/review/review-export';
import { reviewDocumentId } from '../../src/review/review-id';
import { NOTE_MAX, REVIEWER_MAX, reviewInputSchema, type ReviewDocument } from '../../src/review/review-schema';

const input = { workflowId: 'wf-1', reviewer: 'alice', verdictMark: 'right', goldDisputed: false };

describe('review request bodies', () => {
  it('accepts a bounded review and trims the reviewer name', () => {
    expect(reviewInputSchema.parse({ ...input, reviewer: '  alice  ', note: 'line one\nline two' })).toMatchObject({ reviewer: 'alice', note: 'line one\nline two', disputeReason: '' });
  });

  it.each([
    ['an empty reviewer', { reviewer: '   ' }],
    ['a reviewer name over the bound', { reviewer: 'a'.repeat(REVIEWER_MAX + 1) }],
    ['a control character in the name', { reviewer: 'al\u0007ice' }],
    ['a newline in the name', { reviewer: 'al\nice' }],
    ['a note over the bound', { note: 'n'.repeat(NOTE_MAX + 1) }],
    ['a control character in the note', { note: 'bell \u0007' }],
    ['an unknown mark', { verdictMark: 'maybe' }],
    ['a dispute without a reason', { goldDisputed: true, disputeReason: '  ' }],
    ['an unknown field', { admin: true }],
  ])('refuses %s', (_, change) => {
    expect(reviewInputSchema.safeParse({ ...input, ...change }).success).toBe(false);
  });
});

describe('review documents', () => {
  it('one document per reviewer × verification of a run', () => {
    const id = reviewDocumentId('run', 'wf-1', 'alice');
    expect(reviewDocumentId('run', 'wf-1', 'alice')).toBe(id);
    expect(new Set([id, reviewDocumentId('run', 'wf-1', 'bob'), reviewDocumentId('run', 'wf-2', 'alice'), reviewDocumentId('other', 'wf-1', 'alice')]).size).toBe(4);
  });

  it('exports JSON Lines and CSV, formulas neutralised', () => {
    const review: ReviewDocument = {
      runId: 'run', workflowId: 'wf-1', claimId: 'c1', dataset: 'demo', method: 'rag', model: 'm', predicted: 'SUPPORTED', gold: null, reviewer: '=HYPERLINK("x")',
      reviewedAt: '2026-11-29T00:00:00.000Z', verdictMark: 'wrong', goldDisputed: true, disputeReason: 'a, b', note: 'two\nlines',
    };
    expect(renderReviews([review], 'jsonl').trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([review]);
    const [header, row] = renderReviews([review], 'csv').split('\n');
    expect(header).toBe('runId,workflowId,dataset,claimId,method,model,predicted,gold,reviewer,reviewedAt,verdictMark,goldDisputed,disputeReason,note');
    expect(row).toBe('run,wf-1,demo,c1,rag,m,SUPPORTED,,"\'=HYPERLINK(""x"")",2026-11-29T00:00:00.000Z,wrong,true,"a, b","two');
  });
});
