import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

/** A recorded AIMD controller (sweep-lifecycle.test.ts): cuts under 429s, quiet steps back up, limit removed at the ceiling. */
const RECORDED = JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', 'llm-rate-cut-and-recover.json'), 'utf8')) as {
  workflowId: string;
  history: Parameters<typeof historyFromJSON>[0];
};

describe('llmRateWorkflow replay', () => {
  it('replays a recorded controller with the current workflow code', async () => {
    await expect(Worker.runReplayHistory(await replayOptions(), historyFromJSON(RECORDED.history), RECORDED.workflowId)).resolves.toBeUndefined();
  });
});
