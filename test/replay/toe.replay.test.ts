import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

interface HistoryEvent {
  eventType?: string;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  startChildWorkflowExecutionInitiatedEventAttributes?: { workflowType?: { name?: string }; workflowId?: string };
}
interface RecordedHistory {
  workflowId: string;
  history: { events: HistoryEvent[] };
}

const HISTORIES = path.join(__dirname, 'histories');

/**
 * Recorded from a real run (simulator LLM, `toe-bench` indices, T_max 3):
 * verify/toe-replay-fixture/curie/toe and its first node child, …/node-n0.
 */
function loadRecorded(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(HISTORIES, name), 'utf8')) as RecordedHistory;
}

async function replay(recorded: RecordedHistory): Promise<void> {
  return Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);
}

describe('ToE replay (parent verification and node child workflows)', () => {
  it('replays the recorded verification: three node evaluations as child workflows keyed by the parent id', async () => {
    const recorded = loadRecorded('toe-verify.json');
    const children = recorded.history.events.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes ?? []);
    expect(children.map((c) => c.workflowType?.name)).toEqual(['toeNodeWorkflow', 'toeNodeWorkflow', 'toeNodeWorkflow']);
    expect(children[0]?.workflowId).toBe(`${recorded.workflowId}/node-n0`);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('replays the recorded root node evaluation (policy choices, searches, cleaning, analysis, decomposition, episode log)', async () => {
    const recorded = loadRecorded('toe-node.json');
    const activities = new Set(recorded.history.events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean));
    expect([...activities]).toEqual(expect.arrayContaining(['llmTask', 'toeSelectAction', 'toeRecordEpisode']));
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects a node history whose activities no longer match the code', async () => {
    const changed = structuredClone(loadRecorded('toe-node.json'));
    const event = changed.history.events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'toeSelectAction')!;
    event.activityTaskScheduledEventAttributes!.activityType!.name = 'toeChooseSource';
    await expect(replay(changed)).rejects.toBeInstanceOf(DeterminismViolationError);
  });

  it('rejects a verification history whose node evaluations were not child workflows', async () => {
    const changed = structuredClone(loadRecorded('toe-verify.json'));
    changed.history.events.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)!.startChildWorkflowExecutionInitiatedEventAttributes!.workflowType!.name = 'otherWorkflow';
    await expect(replay(changed)).rejects.toBeInstanceOf(DeterminismViolationError);
  });

  it('replays an online-policy verification (acting version read first, the GRPO update after the claim) and its node acting with that version', async () => {
    // Claim 3 of the integration test's online run (warm-up 2, groups of 2): it acted with the first update's weights.
    const verification = loadRecorded('toe-online-verify.json');
    const scheduled = verification.history.events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(scheduled).toContain('toeOnlineClaimFinished');
    await expect(replay(verification)).resolves.toBeUndefined();
    await expect(replay(loadRecorded('toe-online-node.json'))).resolves.toBeUndefined();
  });

  it('rejects an online-policy history whose update step was another activity', async () => {
    const changed = structuredClone(loadRecorded('toe-online-verify.json'));
    changed.history.events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'toeOnlineClaimFinished')!.activityTaskScheduledEventAttributes!.activityType!.name = 'toeTrain';
    await expect(replay(changed)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
