import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

interface HistoryEvent {
  eventType?: string;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  startChildWorkflowExecutionInitiatedEventAttributes?: { workflowType?: { name?: string } };
}

interface RecordedHistory {
  workflowId: string;
  history: { events: HistoryEvent[] };
}

const load = (name: string): RecordedHistory => JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
const replay = async (recorded: RecordedHistory) => Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);
const eventsOf = (recorded: RecordedHistory, type: string) => recorded.history.events.filter((e) => e.eventType === type);

describe('checkDocumentWorkflow replay', () => {
  // The eight-sentence article of test/integration/check-document.test.ts in one run: the claim
  // steps, six child verifications, the document verdict stored.
  it('replays a whole document check', async () => {
    const recorded = load('check-document.json');
    expect(eventsOf(recorded, 'EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED')).toHaveLength(6);
    expect(eventsOf(recorded, 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED').map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)).toContain('storeDocumentVerdict');
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  // A run of a document checked two claims per run: the last extraction, two verifications, continue-as-new.
  it('replays a run that continued as new', async () => {
    const recorded = load('check-document-continued.json');
    expect(eventsOf(recorded, 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW')).toHaveLength(1);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects the history once the verifications are no longer child workflows', async () => {
    const recorded = structuredClone(load('check-document.json'));
    for (const event of recorded.history.events) {
      const type = event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType;
      if (type) type.name = 'sweepWorkflow';
    }
    await expect(replay(recorded)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
