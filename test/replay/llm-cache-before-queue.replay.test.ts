import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { PATCHES, PATCH_LEVEL_MEMO, PATCH_ORDER } from '../../src/shared/patches';
import { replayOptions } from '../support/replay-options';

interface HistoryEvent {
  eventType?: string;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  markerRecordedEventAttributes?: { markerName?: string; details?: Record<string, { payloads?: { data?: string }[] }> };
  workflowExecutionStartedEventAttributes?: { memo?: { fields?: Record<string, { data?: string }> } };
}
interface RecordedHistory {
  workflowId: string;
  history: { events: HistoryEvent[] };
}

/**
 * Recorded with `verity demo --method rag|tool-mad` and then `verity verify` of the same claim
 * under another id (simulator LLM), after the `llm-cache-before-queue` patch: every LLM call first
 * asks the request cache in a local activity (`llmCachedAnswer`), and only a miss schedules `llmTask`
 * on the LLM queue. Histories from before the patch replay in the methods' own replay tests.
 */
const RECORDED = {
  'cache-first-rag-paid.json': { llmCachedAnswer: 1, llmTask: 1 },
  'cache-first-rag-cached.json': { llmCachedAnswer: 1, llmTask: 0 },
  'cache-first-tool-mad-round.json': { llmCachedAnswer: 14, llmTask: 14 },
};

function load(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
}

async function replay(recorded: RecordedHistory): Promise<void> {
  return Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);
}

function activityCounts(recorded: RecordedHistory): { llmCachedAnswer: number; llmTask: number } {
  const events = recorded.history.events;
  const localTypes = events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .map((e) => (JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!.data!.payloads![0]!.data!, 'base64').toString()) as { activity_type: string }).activity_type);
  return {
    llmCachedAnswer: localTypes.filter((type) => type === 'llmCachedAnswer').length,
    llmTask: events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'llmTask').length,
  };
}

const startMemo = (recorded: RecordedHistory) => recorded.history.events[0]!.workflowExecutionStartedEventAttributes!.memo!.fields!;

describe('histories whose LLM calls ask the request cache first', () => {
  it.each(Object.entries(RECORDED))('%s looks up every call, queues only the misses, and replays', async (name, expected) => {
    const recorded = load(name);
    expect(activityCounts(recorded)).toEqual(expected);
    const level = JSON.parse(Buffer.from(startMemo(recorded)[PATCH_LEVEL_MEMO]!.data!, 'base64').toString()) as number;
    expect(level).toBeGreaterThan(PATCH_ORDER.indexOf(PATCHES.llmCacheBeforeQueue));
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects a cached-call history started one patch level lower (that code would queue the call)', async () => {
    const recorded = structuredClone(load('cache-first-rag-cached.json'));
    startMemo(recorded)[PATCH_LEVEL_MEMO]!.data = Buffer.from(JSON.stringify(PATCH_ORDER.indexOf(PATCHES.llmCacheBeforeQueue))).toString('base64');
    await expect(replay(recorded)).rejects.toThrow(DeterminismViolationError);
  });
});
