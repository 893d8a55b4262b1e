import type { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { createLlmRateActivities } from '../../activities/llm-rate.activities';
import type { LlmPacingStore } from '../../src/llm/llm-pacing-store';

/** A Temporal client whose UpdateTaskQueueConfig fails with `code` (12: UNIMPLEMENTED, a server before 1.28). */
function clientFailing(code: number): Client {
  const error = Object.assign(new Error('UpdateTaskQueueConfig failed'), { code });
  return { options: { namespace: 'default', identity: 'test' }, workflowService: { updateTaskQueueConfig: () => Promise.reject(error) } } as unknown as Client;
}

function pacingRecorder() {
  const set: Array<number | null> = [];
  const store = { setRateLimit: async (_queue: string, rate: number | null) => void set.push(rate) } as unknown as LlmPacingStore;
  return { set, store };
}

describe('setLlmQueueRate', () => {
  it('sets the rate on the shared schedule and goes on when the server has no queue rate limit (Temporal 1.27)', async () => {
    const { set, store } = pacingRecorder();
    const { setLlmQueueRate } = createLlmRateActivities({ temporal: async () => clientFailing(12), llmPacing: store });
    await setLlmQueueRate({ taskQueue: 'q-llm', requestsPerSecond: 1.5 });
    await setLlmQueueRate({ taskQueue: 'q-llm', requestsPerSecond: null });
    expect(set).toEqual([1.5, null]);
  });

  it('fails on any other error of the server, so the activity is retried', async () => {
    const { store } = pacingRecorder();
    const { setLlmQueueRate } = createLlmRateActivities({ temporal: async () => clientFailing(14), llmPacing: store });
    await expect(setLlmQueueRate({ taskQueue: 'q-llm', requestsPerSecond: 1 })).rejects.toThrow('UpdateTaskQueueConfig failed');
  });
});
