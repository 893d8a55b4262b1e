import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

interface RecordedHistory {
  workflowId: string;
  history: { events: { eventType: string; startChildWorkflowExecutionInitiatedEventAttributes?: { workflowType?: { name?: string } } }[] };
}

const load = (name: string) => JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
const replay = async (recorded: RecordedHistory) => Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);

/**
 * A recorded sweep with `check` (test/integration/sweep-check.test.ts, 3 FELM-style answers,
 * concurrency 2, forced to continue as new): run 1 starts document checks as children, run 2
 * waits for the ones still running through awaitDocumentCheck.
 */
describe('sweepWorkflow with check, replayed', () => {
  it('replays the run that starts document checks', async () => {
    const recorded = load('sweep-check-run-1.json');
    const children = recorded.history.events.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ?? []);
    expect(children).toEqual(['checkDocumentWorkflow', 'checkDocumentWorkflow']);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('replays the continued run that waits for the documents still running', async () => {
    await expect(replay(load('sweep-check-run-2.json'))).resolves.toBeUndefined();
  });

  it('rejects the history if the sweep had started verifications instead', async () => {
    const recorded = structuredClone(load('sweep-check-run-1.json'));
    for (const event of recorded.history.events) {
      const type = event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType;
      if (type) type.name = 'verifyClaimWorkflow';
    }
    await expect(replay(recorded)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
