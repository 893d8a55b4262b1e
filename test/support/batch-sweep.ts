import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import type { VerityConfig } from '../../src/config/config';
import type { Client } from '@temporalio/client';
import { indexName } from '../../src/es/indices';
import { runConfigSchema } from '../../src/runs/run-manifest';
import type { SweepProgress } from '../../src/shared/sweep';
import type { Verdict } from '../../src/shared/verify';
import type { SimRequestRecord } from '../../src/simulator/request-log';
import { batchCollectorWorkflowId, type BatchLaneSettings } from '../../src/shared/batch';
import { DEMO_CLAIMS, uniqueName } from './test-env';

/** Prices for the simulator's model: the batch price is half the list price, so a batch sweep's cost shows which price it paid. */
export function batchPricesFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-batch-prices-')), 'prices.json');
  fs.writeFileSync(file, JSON.stringify({ 'gpt-4o-mini': { input: 1, output: 2, batchInput: 0.5, batchOutput: 1 } }));
  return file;
}

/** Short waits: the simulator's batches take a few hundred ms. */
export const FAST_BATCH = { models: ['gpt-4o-mini'], maxWaitSeconds: 0.5, pollSeconds: 0.3 };

export interface SweepOptions {
  label: string;
  methods: string[];
  claims: number;
  batch?: Record<string, unknown>;
  /** Settings of the batch lane that a config does not set (e.g. the collector's maxHistoryEvents). */
  lane?: Partial<BatchLaneSettings>;
  /** Method settings (`parameters:`) besides mermaid's memory off. */
  parameters?: Record<string, unknown>;
}

/** Starts a sweep of the demo claims (mermaid without memory) and returns its handle and run id. */
export async function startDemoSweep(client: Client, config: VerityConfig, options: SweepOptions) {
  const run = runConfigSchema.parse({
    run: uniqueName(options.label),
    datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: options.claims }],
    methods: options.methods,
    models: ['gpt-4o-mini'],
    concurrency: 8,
    parameters: { mermaid: { memory: 'off' }, ...options.parameters },
    ...(options.batch ? { batch: options.batch } : {}),
  });
  const input = buildSweepInput(config, run, os.tmpdir());
  if (input.batch && options.lane) input.batch = { ...input.batch, ...options.lane };
  const { handle } = await startSweep(client, config.temporal.taskQueue, input);
  return { handle, runId: run.run, result: (): Promise<SweepProgress> => handle.result() as Promise<SweepProgress> };
}

export async function verdictsOf(es: EsClient, prefix: string, runId: string): Promise<Verdict[]> {
  await es.indices.refresh({ index: indexName(prefix, 'verdicts') });
  const response = await es.search<Verdict>({ index: indexName(prefix, 'verdicts'), size: 1000, query: { term: { runId } } });
  return response.hits.hits.map((hit) => hit._source as Verdict);
}

/** `claimId|method` → label. */
export function labelsOf(verdicts: Verdict[]): Record<string, string> {
  return Object.fromEntries(verdicts.map((verdict) => [`${verdict.claimId}|${verdict.method}`, verdict.label]));
}

/** How often each request (by body hash) was submitted in a batch and answered in one, and direct chat requests. */
export function batchCounts(records: SimRequestRecord[]) {
  const count = (event: 'submitted' | 'answered') => {
    const counts = new Map<string, number>();
    for (const record of records) if (record.batch?.event === event) counts.set(record.requestHash, (counts.get(record.requestHash) ?? 0) + 1);
    return counts;
  };
  return {
    submitted: count('submitted'),
    answered: count('answered'),
    direct: records.filter((record) => record.method === 'POST' && record.path === '/v1/chat/completions').length,
    batchesCreated: records.filter((record) => record.method === 'POST' && record.path === '/v1/batches' && record.status === 200).length,
  };
}

/** Ends the test's collectors (they would wait out their idle time on a queue no worker serves any more). */
export async function terminateCollectors(client: Client, taskQueue: string, models: string[] = FAST_BATCH.models): Promise<void> {
  for (const model of models) {
    await client.workflow
      .getHandle(batchCollectorWorkflowId(taskQueue, model))
      .terminate('test over')
      .catch(() => undefined);
  }
}

/** Each request's batch events in order: `submitted`, `answered 200`, `answered 500`, `expired`. */
export function batchHistories(records: SimRequestRecord[]): Map<string, string[]> {
  const histories = new Map<string, string[]>();
  for (const record of records) {
    if (!record.batch) continue;
    const event = record.batch.event === 'answered' ? `answered ${record.status}` : record.batch.event;
    histories.set(record.requestHash, [...(histories.get(record.requestHash) ?? []), event]);
  }
  return histories;
}

/** A request's history is sound when it was answered well once, and submitted again only after a failed or expired submission. */
export function unsoundHistories(histories: Map<string, string[]>): [string, string[]][] {
  return [...histories].filter(([, events]) => {
    const ok = events.filter((event) => event === 'answered 200').length;
    const lost = events.filter((event) => event === 'expired' || (event.startsWith('answered ') && event !== 'answered 200')).length;
    const submitted = events.filter((event) => event === 'submitted').length;
    return ok !== 1 || submitted !== 1 + lost;
  });
}
