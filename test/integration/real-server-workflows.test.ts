import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { temporal } from '@temporalio/proto';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import type { LlmTaskResult } from '../../src/llm/types';
import { MAX_CLAIM_CHARS, FAILURE_TYPES } from '../../src/shared/constants';
import { fullVerdict } from '../../src/shared/verify';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/** rag verifications through real Temporal and Elasticsearch against the simulator playing real servers. */

async function verify(harness: WorkerHarness, claim: string, topK: number) {
  const input = buildVerifyInput(harness.config, { claim, method: 'rag', topK });
  const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, input);
  const outcome = await handle.result().then(
    (result) => ({ verdict: fullVerdict(result), error: undefined }),
    (error: unknown) => ({ verdict: undefined, error }),
  );
  return { ...outcome, llmResults: await completedLlmResults(handle) };
}

/** The results of the workflow's completed llmTask activities, as recorded in its history. */
async function completedLlmResults(handle: { fetchHistory(): Promise<{ events?: HistoryEvent[] | null }> }): Promise<LlmTaskResult[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = new Map(events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [[String(e.eventId), e.activityTaskScheduledEventAttributes.activityType?.name]] : [])));
  return events.flatMap((e) => {
    const completed = e.activityTaskCompletedEventAttributes;
    if (!completed || scheduled.get(String(completed.scheduledEventId)) !== 'llmTask') return [];
    const data = completed.result?.payloads?.[0]?.data;
    return data ? [JSON.parse(Buffer.from(data).toString('utf8')) as LlmTaskResult] : [];
  });
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** The ApplicationFailure that ended a failed workflow (an activity's, under the activity failure). */
function applicationFailureOf(error: unknown): ApplicationFailure | undefined {
  expect(error).toBeInstanceOf(WorkflowFailedError);
  for (let cause = (error as Error).cause; cause; cause = (cause as Error).cause) if (cause instanceof ApplicationFailure && cause.type) return cause;
  return undefined;
}

const chatStatuses = (harness: WorkerHarness) => harness.simulator.requests().filter((r) => r.path === '/v1/chat/completions').map((r) => r.status);

describe('rag on a llama.cpp server with a 2,048-token window', () => {
  let harness: WorkerHarness;
  beforeAll(async () => {
    harness = await startWorkerHarness('ctx-llamacpp', { simulator: { profile: 'llama.cpp', contextTokens: 2048, keepBodies: true } });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('trims k = 20 evidence to fit, answers, and the LLM result carries the note', async () => {
    const { verdict, llmResults } = await verify(harness, 'The Eiffel Tower is a tower in the city of Paris in France.', 20);
    expect(verdict?.evidence).toHaveLength(20);
    expect(llmResults).toHaveLength(1);
    const note = /^evidence trimmed: 20 → (\d+) passages(, 1 truncated)? to fit 2,048-token window$/.exec(llmResults[0]!.promptNote ?? '');
    expect(note, 'the llmTask result carries the trimming note').not.toBeNull();
    const sent = harness.simulator.arrivals().filter((a) => a.path === '/v1/chat/completions').at(-1)!;
    expect((JSON.parse(sent.body!) as { messages: { content: string }[] }).messages[1]!.content.match(/^\[/gm)).toHaveLength(Number(note![1]));
  });
});

describe('rag on a llama.cpp server with a 1,536-token window', () => {
  let harness: WorkerHarness;
  beforeAll(async () => {
    harness = await startWorkerHarness('ctx-small', { simulator: { profile: 'llama.cpp', contextTokens: 1536, keepBodies: true } });
  });
  afterAll(async () => {
    await harness?.close();
  });

  // A claim of the longest accepted length (about 1,450 tokens) with rag's answer budget does not fit 1,536 tokens.
  it('fails at once, non-retryably, naming the window, when the prompt cannot fit even without evidence', async () => {
    const before = chatStatuses(harness).length;
    const claim = `The Eiffel Tower is in Paris and ${'it is tall and made of iron and famous '.repeat(200)}`.slice(0, MAX_CLAIM_CHARS);
    const { error } = await verify(harness, claim, 5);
    const failure = applicationFailureOf(error);
    expect(failure).toMatchObject({ type: FAILURE_TYPES.llmContextExceeded, nonRetryable: true });
    expect(failure?.message).toMatch(/^the prompt does not fit gpt-4o-mini's 1,536-token context window even without evidence/);
    expect(chatStatuses(harness)).toHaveLength(before);
  });
});

describe('rag on llama-cpp-python (500 on json_schema) with a 600-token window it does not tell', () => {
  let harness: WorkerHarness;
  beforeAll(async () => {
    harness = await startWorkerHarness('ctx-llamacpppy', { simulator: { profile: 'llama-cpp-python', contextTokens: 600 } });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('answers with json_object in the same activity attempt: one 500, one answer, no retry', async () => {
    const { verdict, llmResults } = await verify(harness, 'The Eiffel Tower is located in Paris.', 5);
    expect(verdict?.label).toBeDefined();
    expect(chatStatuses(harness)).toEqual([500, 200]);
    expect(llmResults).toMatchObject([{ responseFormat: 'json_object', attempt: 1 }]);
  });

  it("the server's own context overflow fails the verification non-retryably after one request", async () => {
    const before = chatStatuses(harness).length;
    const { error } = await verify(harness, 'The Eiffel Tower is a tower in the city of Paris in France.', 20);
    const failure = applicationFailureOf(error);
    expect(failure).toMatchObject({ type: FAILURE_TYPES.llmContextExceeded, nonRetryable: true });
    expect(failure?.message).toMatch(/context window.*maximum context length is 600 tokens/);
    expect(chatStatuses(harness).slice(before)).toEqual([400]);
  });
});
