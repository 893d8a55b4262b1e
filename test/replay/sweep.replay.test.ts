import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

interface RecordedHistory {
  workflowId: string;
  history: { events: { activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } }[] };
}

/**
 * A recorded sweep (4 claims, concurrency 2, paused and resumed, forced to continue as new twice):
 * run 1 takes the pause/resume updates and starts children; runs 2 and 3 re-attach to the
 * children still running through awaitVerification.
 */
const RUNS = ['sweep-run-1-of-3.json', 'sweep-run-2-of-3.json', 'sweep-run-3-of-3.json'];

function loadRecorded(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
}

describe('sweepWorkflow replay', () => {
  it.each(RUNS)('replays %s with the current workflow code', async (name) => {
    const recorded = loadRecorded(name);
    await expect(
      Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId),
    ).resolves.toBeUndefined();
  });

  it('rejects a history whose verdict check was another activity', async () => {
    const recorded = structuredClone(loadRecorded('sweep-run-1-of-3.json'));
    const renamed = recorded.history.events
      .map((event) => event.activityTaskScheduledEventAttributes?.activityType)
      .filter((type) => type?.name === 'findVerdicts');
    expect(renamed.length).toBeGreaterThan(0);
    for (const type of renamed) type!.name = 'lookupVerdicts';
    await expect(
      Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId),
    ).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});

/*
 * Recorded by test/integration/stuck-workflows.test.ts (3 claims, one whose verification's workflow
 * task fails on every attempt, policies.failStuckAfterSeconds 20): the sweep's check runs every 10 s
 * (a timer, then findStuckVerifications), notes why, ends the stuck verification (terminateWorkflows) and records its failure.
 */
describe('sweepWorkflow replay with the stuck-verification check', () => {
  it('replays the sweep that ended a stuck verification', async () => {
    const recorded = loadRecorded('sweep-fails-stuck-verification.json');
    const activities = recorded.history.events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(activities).toContain('findStuckVerifications');
    expect(activities).toContain('terminateWorkflows');
    expect(activities).toContain('recordRunFailure');
    await expect(Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId)).resolves.toBeUndefined();
  });
});
