import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { loadRecordedHistory as load, replayRecorded as replay, scheduledActivities as activities } from './recorded-history';

describe('llm-only replay', () => {
  // `verity verify "The Eiffel Tower is in Paris." --method llm-only` (test/integration/llm-only.test.ts).
  it('replays a recorded llm-only verification: one verdict call (the cache lookup and the store are local activities)', async () => {
    const recorded = load('llm-only-verdict.json');
    expect(recorded.workflowId).toMatch(/\/llm-only\//);
    expect(activities(recorded)).toEqual(['llmTask']);
    expect(recorded.history.events.at(-1)?.eventType).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects the history once the verdict call is another activity', async () => {
    const recorded = structuredClone(load('llm-only-verdict.json'));
    for (const event of recorded.history.events) {
      const type = event.activityTaskScheduledEventAttributes?.activityType;
      if (type?.name === 'llmTask') type.name = 'retrievePassages';
    }
    await expect(replay(recorded)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
