import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

interface RecordedHistory {
  workflowId: string;
  history: { events: { eventType?: string; activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } }[] };
}

const HISTORIES = path.join(__dirname, 'histories');

function loadRecorded(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(HISTORIES, name), 'utf8')) as RecordedHistory;
}

/** An older shape of the workflow: the retrieval step used to be another activity. */
function withRenamedActivity(recorded: RecordedHistory, from: string, to: string): RecordedHistory {
  const copy = structuredClone(recorded);
  let renamed = 0;
  for (const event of copy.history.events) {
    const type = event.activityTaskScheduledEventAttributes?.activityType;
    if (type?.name === from) {
      type.name = to;
      renamed += 1;
    }
  }
  expect(renamed).toBeGreaterThan(0);
  return copy;
}

describe('verifyClaimWorkflow replay', () => {
  it('replays a recorded rag verification with the current workflow code', async () => {
    const recorded = loadRecorded('verify-claim-rag.json');
    await expect(
      Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId),
    ).resolves.toBeUndefined();
  });

  it('rejects a history whose activities no longer match the code', async () => {
    const incompatible = withRenamedActivity(loadRecorded('verify-claim-rag.json'), 'retrievePassages', 'searchWikipedia');
    await expect(
      Worker.runReplayHistory(await replayOptions(), historyFromJSON(incompatible.history), incompatible.workflowId),
    ).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
