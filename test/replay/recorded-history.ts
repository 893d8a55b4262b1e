import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { replayOptions } from '../support/replay-options';

/** A history captured with test/replay/capture-history.ts (only the fields the replay tests read are typed). */
export interface RecordedHistory {
  workflowId: string;
  history: { events: { eventType?: string; activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } }[] };
}

export function loadRecordedHistory(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
}

/** Replays the history with the current workflow code; rejects with a DeterminismViolationError if it no longer fits. */
export async function replayRecorded(recorded: RecordedHistory): Promise<void> {
  return Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);
}

/** The activity type of every ActivityTaskScheduled event, in order. */
export function scheduledActivities(recorded: RecordedHistory): string[] {
  return recorded.history.events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
}
