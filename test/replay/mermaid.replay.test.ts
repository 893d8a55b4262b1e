import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import type { VerifyClaimInput } from '../../src/shared/verify';
import { replayOptions } from '../support/replay-options';

interface Payload {
  metadata?: Record<string, string>;
  data?: string;
}

interface RecordedHistory {
  workflowId: string;
  history: {
    events: {
      eventType?: string;
      workflowExecutionStartedEventAttributes?: { input?: { payloads?: Payload[] } };
      activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
    }[];
  };
}

const HISTORIES = path.join(__dirname, 'histories');

function loadRecorded(name: string): RecordedHistory {
  return JSON.parse(fs.readFileSync(path.join(HISTORIES, name), 'utf8')) as RecordedHistory;
}

async function replay(recorded: RecordedHistory): Promise<void> {
  return Worker.runReplayHistory(await replayOptions(), historyFromJSON(recorded.history), recorded.workflowId);
}

function activities(recorded: RecordedHistory): string[] {
  return recorded.history.events.flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
}

/** The same history with the workflow input changed (base64 JSON payload of the started event). */
function withInput(recorded: RecordedHistory, change: (input: VerifyClaimInput) => VerifyClaimInput): RecordedHistory {
  const copy = structuredClone(recorded);
  const payload = copy.history.events[0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  const input = JSON.parse(Buffer.from(payload.data!, 'base64').toString('utf8')) as VerifyClaimInput;
  payload.data = Buffer.from(JSON.stringify(change(input))).toString('base64');
  return copy;
}

describe('MERMAID replay', () => {
  it('replays a recorded paper-mode verification (decompose, recall, tool call, answer, end-of-claim update)', async () => {
    const recorded = loadRecorded('mermaid-paper.json');
    expect(activities(recorded)).toEqual(['llmTask', 'mermaidToolCatalog', 'memoryRecall', 'llmTask', 'tools.search_wikipedia', 'llmTask', 'memoryUpdate', 'storeVerdict']);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('replays a recorded code-compat verification (per-call memory write, "True" at T_max without an LLM call)', async () => {
    const recorded = loadRecorded('mermaid-code-compat.json');
    expect(activities(recorded)).toEqual(['llmTask', 'mermaidToolCatalog', 'memoryRecall', 'llmTask', 'tools.search_wikipedia', 'memoryUpdate', 'storeVerdict']);
    await expect(replay(recorded)).resolves.toBeUndefined();
  });

  it('rejects the history when the input turns memory off (the workflow would no longer recall)', async () => {
    const changed = withInput(loadRecorded('mermaid-paper.json'), (input) => ({ ...input, settings: { mermaid: { ...input.settings?.mermaid, memory: 'off' } } }));
    await expect(replay(changed)).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
