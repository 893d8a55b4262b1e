import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

interface HistoryEvent {
  startChildWorkflowExecutionInitiatedEventAttributes?: { workflowId?: string };
  workflowExecutionFailedEventAttributes?: { failure?: { message?: string; applicationFailureInfo?: { type?: string } } };
}
interface RecordedHistory {
  workflowId: string;
  history: { events: HistoryEvent[] };
}

function load(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
}

/**
 * Recorded by test/integration/sweep-hostile-inputs.test.ts after the `short-id-parts` and
 * `sweep-fails-on-lost-outcome` patches: a sweep over claim ids too long to spell out (children
 * under shortened ids), and a sweep whose failure record was refused by Elasticsearch (it fails
 * with that reason). Their memo's patch level is 12: the two patches landed after
 * `invalid-answers-counted` (level 10), which no sweep workflow code consults.
 */
describe('sweepWorkflow replay after the hostile-input patches', () => {
  it('replays a sweep whose children have shortened ids', async () => {
    const recorded = load('sweep-long-ids.json');
    const childIds = recorded.history.events.flatMap((event) => event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? []);
    expect(childIds.some((id) => /:[0-9a-f]{16}\//.test(id))).toBe(true);
    for (const id of childIds) expect(Buffer.byteLength(id)).toBeLessThanOrEqual(512);
    await expect(Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId)).resolves.toBeUndefined();
  });

  it('replays a sweep that failed because a verification failure could not be recorded', async () => {
    const recorded = load('sweep-outcome-lost.json');
    const failed = recorded.history.events.find((event) => event.workflowExecutionFailedEventAttributes)?.workflowExecutionFailedEventAttributes;
    expect(failed?.failure?.applicationFailureInfo?.type).toBe('SweepOutcomeLost');
    expect(failed?.failure?.message).toMatch(/could not be recorded/);
    await expect(Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId)).resolves.toBeUndefined();
  });
});
