import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { replayOptions } from '../support/replay-options';

interface RecordedEvent {
  eventType?: string;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  startChildWorkflowExecutionInitiatedEventAttributes?: { workflowId?: string; workflowType?: { name?: string } };
}
interface RecordedHistory {
  workflowId: string;
  history: { events: RecordedEvent[] };
}

const HISTORIES = path.join(__dirname, 'histories');
const load = (name: string) => JSON.parse(fs.readFileSync(path.join(HISTORIES, name), 'utf8')) as RecordedHistory;
const replay = async (recorded: RecordedHistory) =>
  Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);

/*
 * Histories captured from a real run (`verity verify "Soul Food is a 1997 film." --method tool-mad`
 * with the simulator): the verification that debated 3 rounds and went to the judge, and its
 * second round's child workflow.
 */
describe('tool-mad replay', () => {
  it('replays the verification: three round child workflows, then the judge', async () => {
    const recorded = load('tool-mad-judge.json');
    const children = recorded.history.events
      .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)
      .filter((a) => a !== undefined && a !== null);
    expect(children.map((c) => c.workflowId)).toEqual([1, 2, 3].map((r) => `${recorded.workflowId}/round-${r}`));
    expect(children.every((c) => c.workflowType?.name === 'toolMadRoundWorkflow')).toBe(true);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('replays a round child workflow (both debaters concurrently: query, retrieval, answer, scoring)', async () => {
    const recorded = load('tool-mad-round-2.json');
    const activities = recorded.history.events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(activities).toEqual(expect.arrayContaining(['llmTask', 'retrievePassages', 'tools.web_search', 'toolMadQuestionSimilarity']));
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects a round history whose activities no longer match the code', async () => {
    const changed = structuredClone(load('tool-mad-round-2.json'));
    const scheduled = changed.history.events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'retrievePassages');
    scheduled!.activityTaskScheduledEventAttributes!.activityType!.name = 'searchWikipedia';
    await expect(replay(changed)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});

/*
 * Issue 42: a round of a chaos run whose worker was killed (shared/repro). Its first run resumed the
 * two debaters' local activities one per activation; the next worker's replay got both results in
 * one activation, the search debater scheduled its LLM task before the RAG debater its retrieval,
 * and every workflow task failed with "Missing associated machine for LocalActivity(3)".
 * proxyOrderedLocalActivities resumes them in the order they finished, as the first run did.
 */
describe('tool-mad round wedged after a worker kill (issue 42)', () => {
  const wedged = load('tool-mad-round-wedged-after-kill.json');

  it('is the recorded failure: concurrent local activities, then a non-determinism error', () => {
    const failed = wedged.history.events.at(-1) as { eventType?: string; workflowTaskFailedEventAttributes?: { failure?: { message?: string } } };
    expect(failed.eventType).toBe('EVENT_TYPE_WORKFLOW_TASK_FAILED');
    expect(failed.workflowTaskFailedEventAttributes?.failure?.message).toContain('Missing associated machine for LocalActivity(3)');
  });

  it('replays with the current workflow code', async () => {
    await expect(replay(wedged)).resolves.toBeUndefined();
  });
});
