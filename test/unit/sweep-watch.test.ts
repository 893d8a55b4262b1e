import { describe, expect, it } from 'vitest';
import { formatWatch, ratePerMinute } from '../../src/cli/sweep-watch';
import type { SweepProgress } from '../../src/shared/sweep';

const progress: SweepProgress = { runId: 'r', status: 'running', total: 100, done: 40, failed: 2, reused: 5, running: 4, tokens: 1234, costUsd: 0.12, budget: {}, continuedAsNew: 0 };

describe('sweep status --watch', () => {
  it('measures the rate between the first and the latest observation', () => {
    expect(ratePerMinute({ at: 0, finished: 10 }, { at: 30_000, finished: 20 })).toBe(20);
    expect(ratePerMinute({ at: 0, finished: 10 }, { at: 30_000, finished: 10 })).toBeUndefined();
  });

  it('shows rate and ETA, the latest failures and what Temporal is retrying, so a retrying run never looks stuck', () => {
    const text = formatWatch({
      progress,
      perMinute: 29,
      failures: [{ workflowId: 'w', claimId: 'c-1', method: 'rag', model: 'm', type: 'IndexNotFound', reason: 'index\nmissing' }],
      retrying: [{ workflowId: 'verify/r/c-2/rag', activity: 'llmTask', attempt: 3, lastFailure: 'HTTP 429 rate limited' }],
      unscanned: 0,
    });
    expect(text).toContain('42/100 verifications finished');
    expect(text).toContain('rate 29.0 verifications/min · ETA 2 min');
    expect(text).toContain('retrying 1 activity (1 rate-limited, 429):');
    expect(text).toContain('llmTask attempt 3 in verify/r/c-2/rag: HTTP 429 rate limited');
    expect(text).toContain('c-1 rag m [IndexNotFound] index missing');
    expect(formatWatch({ progress, perMinute: undefined, failures: [], retrying: [], unscanned: 0 })).toContain('retries: none pending');
  });
});
