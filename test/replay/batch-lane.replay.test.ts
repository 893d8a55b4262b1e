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
 * Recorded by a sweep with batch: true of rag and mermaid over 2 demo claims, the simulator expiring
 * the first batch and failing every third request line (batch-recovery.test.ts's faults): the sweep,
 * a rag and a mermaid verification whose calls went through llmBatchTask, and their collector: its
 * first run (resubmissions, ended by continue-as-new at 150 events) and its last (terminated once idle).
 */
describe('batch lane replay', () => {
  for (const name of ['batch-collector-continued', 'batch-collector-expired-and-failed', 'batch-lane-sweep', 'batch-lane-rag', 'batch-lane-mermaid']) {
    it(`replays ${name} with the current workflow code`, async () => {
      const { workflowId, history } = recorded(name);
      await expect(Worker.runReplayHistory(await replayOptions(), historyFromJSON(history), workflowId)).resolves.toBeUndefined();
    });
  }
});
