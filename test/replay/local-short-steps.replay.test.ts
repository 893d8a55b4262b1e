import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { LOCAL_SHORT_STEPS_PATCH } from '../../workflows/es-activities';
import { replayOptions } from '../support/replay-options';

interface HistoryEvent {
  eventType?: string;
  markerRecordedEventAttributes?: { markerName?: string; details?: Record<string, { payloads?: { data?: string }[] }> };
}
interface RecordedHistory {
  workflowId: string;
  history: { events: HistoryEvent[] };
}

/**
 * Recorded with `verity demo --method <m>` (simulator LLM) after the `local-short-steps` patch:
 * short Elasticsearch reads and writes, similarity and policy steps are local activities (markers
 * in the history, no activity tasks). The histories from before the patch replay in the method's
 * own replay tests.
 */
const RECORDED = [
  'local-steps-verify-claim-rag.json',
  'local-steps-mermaid.json',
  'local-steps-fire.json',
  'local-steps-tool-mad-round.json',
  'local-steps-toe-node.json',
];

function load(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
}

async function replay(recorded: RecordedHistory): Promise<void> {
  return Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);
}

const markers = (recorded: RecordedHistory, name: string) =>
  recorded.history.events.filter((e) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED' && e.markerRecordedEventAttributes?.markerName === name);

describe('histories with short steps as local activities', () => {
  it.each(RECORDED)('replays %s with the current workflow code', async (name) => {
    const recorded = load(name);
    expect(markers(recorded, 'core_patch')).toHaveLength(1);
    expect(markers(recorded, 'core_local_activity').length).toBeGreaterThan(0);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects the history when its patch marker names another patch (the code would schedule regular activities)', async () => {
    const changed = structuredClone(load('local-steps-verify-claim-rag.json'));
    const payload = markers(changed, 'core_patch')[0]!.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]!;
    expect(JSON.parse(Buffer.from(payload.data!, 'base64').toString())).toMatchObject({ id: LOCAL_SHORT_STEPS_PATCH });
    payload.data = Buffer.from(JSON.stringify({ id: 'some-other-patch', deprecated: false })).toString('base64');
    await expect(replay(changed)).rejects.toThrow(DeterminismViolationError);
  });
});
