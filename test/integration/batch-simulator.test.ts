import OpenAI, { toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/simulator/server';
import { waitFor } from '../support/wait-for';

const started: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
});

async function simulatorWith(options: SimulatorOptions): Promise<{ sim: RunningSimulator; client: OpenAI }> {
  const sim = await startSimulator(options);
  started.push(sim);
  return { sim, client: new OpenAI({ apiKey: 'sim', baseURL: sim.url, maxRetries: 0 }) };
}

function chatBody(claim: string) {
  return {
    model: 'gpt-4o-mini',
    max_tokens: 200,
    messages: [
      { role: 'system', content: 'Answer with a verdict.' },
      { role: 'user', content: `Claim: ${claim}` },
    ],
  };
}

function inputFile(claims: string[]): string {
  return claims.map((claim, index) => JSON.stringify({ custom_id: `req-${index}`, method: 'POST', url: '/v1/chat/completions', body: chatBody(claim) })).join('\n');
}

async function submit(client: OpenAI, claims: string[], metadata?: Record<string, string>) {
  const file = await client.files.create({ file: await toFile(Buffer.from(inputFile(claims)), 'batch.jsonl'), purpose: 'batch' });
  return client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', ...(metadata ? { metadata } : {}) });
}

async function untilEnded(client: OpenAI, id: string): Promise<OpenAI.Batches.Batch> {
  let batch = await client.batches.retrieve(id);
  await waitFor(`batch ${id} to end`, async () => {
    batch = await client.batches.retrieve(id);
    return !['validating', 'in_progress', 'finalizing', 'cancelling'].includes(batch.status);
  });
  return batch;
}

async function linesOf(client: OpenAI, fileId: string | null | undefined): Promise<Record<string, unknown>[]> {
  if (!fileId) return [];
  const text = await (await client.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('simulator: OpenAI files and batches endpoints, through the openai client', () => {
  it('answers each request of a batch as the chat endpoint answers it directly, after the turnaround', async () => {
    const { sim, client } = await simulatorWith({ batch: { turnaroundMs: 300 } });
    const claims = ['The Eiffel Tower is in Paris.', 'Water boils at 50 degrees.'];
    const created = await submit(client, claims, { verity_batch: 'c1-1' });
    expect(created.status).toBe('validating');
    expect(created.metadata).toEqual({ verity_batch: 'c1-1' });

    const ended = await untilEnded(client, created.id);
    expect(ended.status).toBe('completed');
    expect(ended.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
    const outputs = await linesOf(client, ended.output_file_id);
    const direct = await Promise.all(claims.map((claim) => client.chat.completions.create(chatBody(claim) as OpenAI.ChatCompletionCreateParamsNonStreaming)));
    expect(outputs.map((line) => line.custom_id)).toEqual(['req-0', 'req-1']);
    expect(outputs.map((line) => (line.response as { body: unknown }).body)).toEqual(JSON.parse(JSON.stringify(direct)));

    const batchRecords = sim.requests().filter((record) => record.method === 'BATCH');
    expect(batchRecords.map((record) => record.batch?.event)).toEqual(['submitted', 'submitted', 'answered', 'answered']);
    // The same hash as the direct request with the same body: tests count a request however it was sent.
    const directHashes = sim.requests().filter((record) => record.method === 'POST' && record.path === '/v1/chat/completions').map((record) => record.requestHash);
    expect(batchRecords.filter((record) => record.batch?.event === 'answered').map((record) => record.requestHash)).toEqual(directHashes);
  });

  it('lists batches newest first with their metadata, page by page', async () => {
    const { client } = await simulatorWith({ batch: { turnaroundMs: 10_000 } });
    const first = await submit(client, ['a claim'], { verity_batch: 'c-1' });
    const second = await submit(client, ['another claim'], { verity_batch: 'c-2' });
    const page = await client.batches.list({ limit: 1 });
    expect(page.data.map((batch) => batch.metadata)).toEqual([{ verity_batch: 'c-2' }]);
    expect(page.has_more).toBe(true);
    const all: string[] = [];
    for await (const batch of client.batches.list({ limit: 1 })) all.push(batch.id);
    expect(all).toEqual([second.id, first.id]);
  });

  it('puts failed requests in the error file and answers the others', async () => {
    const { client } = await simulatorWith({ batch: { turnaroundMs: 50, lineFaults: [{ kind: '500', match: 'boils' }] } });
    const ended = await untilEnded(client, (await submit(client, ['The Eiffel Tower is in Paris.', 'Water boils at 50 degrees.'])).id);
    expect(ended.status).toBe('completed');
    expect(ended.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    expect((await linesOf(client, ended.output_file_id)).map((line) => line.custom_id)).toEqual(['req-0']);
    const errors = await linesOf(client, ended.error_file_id);
    expect(errors).toMatchObject([{ custom_id: 'req-1', response: { status_code: 500 } }]);
  });

  it('expires a batch with only part of it answered', async () => {
    const { sim, client } = await simulatorWith({ batch: { turnaroundMs: 50, expiry: [{ match: 'first', times: 1 }] } });
    const ended = await untilEnded(client, (await submit(client, ['first claim', 'second claim', 'third claim', 'fourth claim'])).id);
    expect(ended.status).toBe('expired');
    expect((await linesOf(client, ended.output_file_id)).map((line) => line.custom_id)).toEqual(['req-0', 'req-1']);
    expect(await linesOf(client, ended.error_file_id)).toMatchObject([
      { custom_id: 'req-2', response: null, error: { code: 'batch_expired' } },
      { custom_id: 'req-3', response: null, error: { code: 'batch_expired' } },
    ]);
    expect(sim.requests().filter((record) => record.batch?.event === 'answered')).toHaveLength(2);
    // `times: 1`: the next batch with the same text completes.
    expect((await untilEnded(client, (await submit(client, ['first claim'])).id)).status).toBe('completed');
  });

  it('fails a batch whose input breaks the rules (duplicate custom_id, mixed models) and cancels on request', async () => {
    const { client } = await simulatorWith({ batch: { turnaroundMs: 50 } });
    const line = (customId: string, model: string) => JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { ...chatBody('x'), model } });
    const file = await client.files.create({ file: await toFile(Buffer.from([line('a', 'gpt-4o-mini'), line('a', 'gpt-4o-mini'), line('b', 'gpt-4o')].join('\n')), 'bad.jsonl'), purpose: 'batch' });
    const failed = await untilEnded(client, (await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).id);
    expect(failed.status).toBe('failed');
    expect(failed.errors?.data?.map((error) => error.code)).toEqual(['duplicate_custom_id', 'mismatched_model']);

    const slow = await simulatorWith({ batch: { turnaroundMs: 60_000 } });
    const pending = await submit(slow.client, ['a claim']);
    expect((await slow.client.batches.cancel(pending.id)).status).toBe('cancelled');
    await expect(slow.client.batches.create({ input_file_id: 'file-missing', endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toThrow(/No such batch input file/);
  });
});
