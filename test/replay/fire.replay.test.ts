import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { loadRecordedHistory as load, replayRecorded as replay, scheduledActivities as activities } from './recorded-history';

describe('fire replay', () => {
  // bingcheck-6: three searches, the results of the last two repeat each other (embedding
  // similarity activity), then the forced final answer.
  it('replays an early-stopped verification', async () => {
    const recorded = load('fire-early-stop.json');
    expect(activities(recorded)).toContain('fireTextSimilarity');
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  // factool_qa-24: each step's first answer is unreadable and retried.
  it('replays a verification whose steps were retried', async () => {
    const recorded = load('fire-retry.json');
    expect(activities(recorded).filter((name) => name === 'llmTask')).toHaveLength(4);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects the history once the similarity check is gone', async () => {
    const recorded = structuredClone(load('fire-early-stop.json'));
    for (const event of recorded.history.events) {
      const type = event.activityTaskScheduledEventAttributes?.activityType;
      if (type?.name === 'fireTextSimilarity') type.name = 'llmTask';
    }
    await expect(replay(recorded)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
