import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { PATCH_LEVEL_MEMO, PATCH_ORDER } from '../../src/shared/patches';
import { replayOptions } from '../support/replay-options';

interface HistoryEvent {
  eventType?: string;
  markerRecordedEventAttributes?: { markerName?: string };
  workflowExecutionStartedEventAttributes?: { memo?: { fields?: Record<string, { data?: string }> } };
}
interface RecordedHistory {
  workflowId: string;
  history: { events: HistoryEvent[] };
}

/**
 * Recorded with `verity demo --method rag|mermaid` (simulator LLM) after executions started to
 * carry their patch level in the memo: they take every patch without `patched()`, so their
 * histories hold no patch marker and no TemporalChangeVersion upsert (one visibility write less
 * per claim on the server).
 */
const RECORDED = ['patch-level-verify-rag.json', 'patch-level-mermaid.json'];

function load(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
}

async function replay(recorded: RecordedHistory): Promise<void> {
  return Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);
}

const startMemo = (recorded: RecordedHistory) => recorded.history.events[0]!.workflowExecutionStartedEventAttributes!.memo!.fields!;

describe('executions started with a patch level', () => {
  it.each(RECORDED)('%s has no patch marker or change-version upsert and replays', async (name) => {
    const recorded = load(name);
    const level = JSON.parse(Buffer.from(startMemo(recorded)[PATCH_LEVEL_MEMO]!.data!, 'base64').toString()) as number;
    expect(level).toBeGreaterThan(0);
    expect(level).toBeLessThanOrEqual(PATCH_ORDER.length);
    const markerNames = recorded.history.events.filter((e) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED').map((e) => e.markerRecordedEventAttributes?.markerName);
    expect(markerNames).not.toContain('core_patch');
    expect(markerNames).toContain('core_local_activity');
    expect(JSON.stringify(recorded.history.events)).not.toContain('TemporalChangeVersion');
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects the same history without its patch level (the code would ask patched() and schedule regular activities)', async () => {
    const recorded = structuredClone(load('patch-level-verify-rag.json'));
    delete startMemo(recorded)[PATCH_LEVEL_MEMO];
    await expect(replay(recorded)).rejects.toThrow(DeterminismViolationError);
  });
});
