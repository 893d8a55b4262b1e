import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { PATCHES, PATCH_LEVEL_MEMO, PATCH_ORDER } from '../../src/shared/patches';
import { replayOptions } from '../support/replay-options';

interface HistoryEvent {
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string }; input?: { payloads?: { data?: string }[] } };
  activityTaskFailedEventAttributes?: { failure?: { applicationFailureInfo?: { type?: string } } };
  workflowExecutionStartedEventAttributes?: { memo?: { fields?: Record<string, { data?: string }> } };
}
interface RecordedHistory {
  workflowId: string;
  history: { events: HistoryEvent[] };
}

/**
 * Recorded against the simulator with a malformed-answer fault after the `invalid-answers-counted`
 * patch: the invalid answers are counted with their usage, rag/Tool-MAD/ToE re-ask once with a
 * correction and fall back, EMULATE falls back at once, FIRE retries as its code does.
 */
const RECORDED: Record<string, { invalid: number; reasks: number }> = {
  'invalid-answer-rag-reask.json': { invalid: 1, reasks: 1 },
  'invalid-answer-rag-fallback.json': { invalid: 2, reasks: 1 },
  'invalid-answer-fire.json': { invalid: 22, reasks: 0 },
  'invalid-answer-emulate.json': { invalid: 1, reasks: 0 },
  'invalid-answer-tool-mad.json': { invalid: 2, reasks: 1 },
  'invalid-answer-tool-mad-round.json': { invalid: 4, reasks: 2 },
  'invalid-answer-toe.json': { invalid: 0, reasks: 0 },
  'invalid-answer-toe-node.json': { invalid: 2, reasks: 1 },
};

function load(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', name), 'utf8')) as RecordedHistory;
}

async function replay(recorded: RecordedHistory): Promise<void> {
  return Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);
}

function invalidAnswers(recorded: RecordedHistory): number {
  return recorded.history.events.filter((e) => e.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type === 'LlmOutputInvalid').length;
}

function reasks(recorded: RecordedHistory): number {
  return recorded.history.events.filter((e) => {
    const attributes = e.activityTaskScheduledEventAttributes;
    if (attributes?.activityType?.name !== 'llmTask') return false;
    const input = JSON.parse(Buffer.from(attributes.input!.payloads![0]!.data!, 'base64').toString()) as { correction?: unknown };
    return input.correction !== undefined;
  }).length;
}

function withPatchLevel(recorded: RecordedHistory, level: number): RecordedHistory {
  const copy = structuredClone(recorded);
  copy.history.events[0]!.workflowExecutionStartedEventAttributes!.memo!.fields![PATCH_LEVEL_MEMO]!.data = Buffer.from(JSON.stringify(level)).toString('base64');
  return copy;
}

describe('histories with invalid LLM answers', () => {
  it.each(Object.entries(RECORDED))('%s has its invalid answers and re-asks, and replays', async (name, expected) => {
    const recorded = load(name);
    expect({ invalid: invalidAnswers(recorded), reasks: reasks(recorded) }).toEqual(expected);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('an execution without the patch fails on the invalid answer, as before, so the re-ask does not replay', async () => {
    const before = withPatchLevel(load('invalid-answer-rag-reask.json'), PATCH_ORDER.indexOf(PATCHES.invalidAnswersCounted));
    await expect(replay(before)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
