import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../src/worker/create-worker';

interface RecordedHistory {
  workflowId: string;
  history: { events: { eventType?: string; activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } }[] };
}

const load = (name: string): RecordedHistory => JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
const replay = (recorded: RecordedHistory) => Worker.runReplayHistory({ workflowsPath: WORKFLOWS_PATH }, historyFromJSON(recorded.history), recorded.workflowId);
const activities = (recorded: RecordedHistory) => recorded.history.events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);

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
