import { describe, expect, it } from 'vitest';
import { readOutputLines } from '../../src/llm/batch/batch-lines';
import { addBatchRequest, batchCollectorWorkflowId, emptyCollectorState, resolvedBatchSettings } from '../../src/shared/batch';

const completion = { model: 'gpt-4o-mini', choices: [{ message: { content: '{"label":"SUPPORTED"}' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 3 } };

describe('batch lane: the collector state', () => {
  it('queues a request once; a retried caller replaces its token, another caller adds its own', () => {
    const state = emptyCollectorState();
    addBatchRequest(state, { requestKey: 'k1', callerId: 'wf-a/1', taskToken: 't1' });
    addBatchRequest(state, { requestKey: 'k1', callerId: 'wf-a/1', taskToken: 't2' });
    addBatchRequest(state, { requestKey: 'k1', callerId: 'wf-b/4', taskToken: 't3' });
    addBatchRequest(state, { requestKey: 'k2', callerId: 'wf-c/1', taskToken: 't4' });
    expect(state.queue).toEqual(['k1', 'k2']);
    expect(state.requests.k1!.waiters).toEqual({ 'wf-a/1': 't2', 'wf-b/4': 't3' });
    expect(state.requests.k1!.submissions).toBe(0);
  });

  it('names one collector per task queue and model, and fills in the defaults', () => {
    expect(batchCollectorWorkflowId('verity-abc', 'org/model:7b')).toBe('verity-batch/verity-abc/org%2Fmodel%3A7b');
    expect(resolvedBatchSettings({ models: ['m'], maxWaitMs: 500 })).toEqual({ maxRequests: 500, maxWaitMs: 500, pollMs: 60_000, maxSubmissions: 3, maxHistoryEvents: 5_000 });
  });
});

describe('batch lane: output and error files', () => {
  it('reads answers, retries (expired, 429, 5xx) and rejections (other 4xx); skips lines that break the format', () => {
    const lines = [
      { custom_id: 'ok', response: { status_code: 200, body: completion }, error: null },
      { custom_id: 'expired', response: null, error: { code: 'batch_expired', message: 'window over' } },
      { custom_id: 'busy', response: { status_code: 500, body: { error: { message: 'server error' } } }, error: null },
      { custom_id: 'limited', response: { status_code: 429, body: { error: { message: 'slow down' } } }, error: null },
      { custom_id: 'bad', response: { status_code: 400, body: { error: { message: 'Invalid schema' } } }, error: null },
      { custom_id: 'garbled', response: { status_code: 200, body: { not: 'a completion' } }, error: null },
    ];
    const outcomes = readOutputLines(`${lines.map((line) => JSON.stringify(line)).join('\n')}\nnot json\n{"custom_id": 5}\n`);
    expect(outcomes.get('ok')).toEqual({ kind: 'answer', completion });
    expect(outcomes.get('expired')).toEqual({ kind: 'retry', message: 'batch_expired: window over' });
    expect(outcomes.get('busy')).toEqual({ kind: 'retry', message: 'server error' });
    expect(outcomes.get('limited')?.kind).toBe('retry');
    expect(outcomes.get('bad')).toEqual({ kind: 'rejected', message: 'HTTP 400: Invalid schema' });
    expect(outcomes.get('garbled')?.kind).toBe('retry');
    expect(outcomes.size).toBe(6);
  });
});
