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

const FILE = path.join(__dirname, 'histories', 'emulate-search-final-pass.json');
const load = (): RecordedHistory => JSON.parse(fs.readFileSync(FILE, 'utf8')) as RecordedHistory;
const replay = async (recorded: RecordedHistory) => Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);

describe('emulate replay', () => {
  // Recorded from `verity verify "Jack Dorsey returned as CEO of Twitter in 2015" --method emulate`:
  // 3 queries (initial + 2 additional), a parked result checked again in the final pass, 18 LLM calls.
  it('replays a recorded verification with the current workflow code', async () => {
    const recorded = load();
    const scheduled = recorded.history.events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(scheduled.filter((name) => name === 'llmTask')).toHaveLength(18);
    expect(scheduled.filter((name) => name === 'tools.web_search')).toHaveLength(3);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects the history once its second search is no longer a web search', async () => {
    const recorded = structuredClone(load());
    const searches = recorded.history.events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'tools.web_search');
    searches[1]!.activityTaskScheduledEventAttributes!.activityType!.name = 'tools.read_page';
    await expect(replay(recorded)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
