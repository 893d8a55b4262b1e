import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

function recorded(name: string) {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', `${name}.json`), 'utf8')) as { workflowId: string; history: Parameters<typeof historyFromJSON>[0] };
}

/**
 * Recorded bulk ingests (3,000 generated passages in 6 batches, 2 in flight): one from the start
 * (index prepared, every batch, index finished) and one resumed from a recorded frontier, as a run
 * after continue-as-new is.
 */
describe('bulkIngestWorkflow replay', () => {
  for (const name of ['bulk-ingest', 'bulk-ingest-resumed']) {
    it(`replays ${name} with the current workflow code`, async () => {
      const { workflowId, history } = recorded(name);
      await expect(Worker.runReplayHistory(await replayOptions(), historyFromJSON(history), workflowId)).resolves.toBeUndefined();
    });
  }
});
