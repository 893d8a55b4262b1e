import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { EXPORT_COLUMNS } from '../../src/runs/export/export-row';
import { exportRun } from '../../src/runs/export/export-run';
import { streamRunRows } from '../../src/runs/export/stream-run-rows';
import { RunNotFoundError } from '../../src/runs/read-run';
import { projectRoot } from '../../src/project-root';
import { seedSyntheticRun } from '../support/synthetic-run';
import { deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

const FEVER = path.join(projectRoot(), '..', 'shared', 'data', 'dev', 'fever.jsonl');

describe('verity export on real Elasticsearch', () => {
  let client: Client;
  const prefix = uniqueName('export');
  const runId = 'export-run';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-export-'));
  let seeded: { verdicts: number; failures: number };

  beforeAll(async () => {
    client = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    seeded = await seedSyntheticRun(client, prefix, { runId, datasets: [{ name: 'fever', file: FEVER, sample: 40 }], methods: ['rag', 'fire'], models: ['gpt-4o-mini'], failEvery: 5 });
    // A failure that a retry fixed (it has a verdict) is not exported as a failure.
    const fixed = (await client.search<{ workflowId: string; claimId: string }>({ index: indexName(prefix, 'verdicts'), size: 1, query: { term: { runId } } })).hits.hits[0]!._source!;
    await client.index({ index: indexName(prefix, 'run-failures'), id: fixed.workflowId, document: { runId, workflowId: fixed.workflowId, claimId: fixed.claimId, dataset: 'fever', method: 'rag', model: 'gpt-4o-mini', reason: 'earlier outage', failedAt: '2026-01-01T00:00:00.000Z' }, refresh: 'wait_for' });
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(client, prefix);
    await client.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('streams every verdict and every failure without a verdict, page by page (point in time + search_after)', async () => {
    expect(seeded.failures).toBeGreaterThan(0);
    const stats = { verdicts: 0, failures: 0, skipped: 0, problems: [] };
    const pages: number[] = [];
    for await (const page of streamRunRows(client, prefix, runId, stats, 7)) pages.push(page.length);
    expect(stats).toEqual({ verdicts: seeded.verdicts, failures: seeded.failures, skipped: 0, problems: [] });
    expect(Math.max(...pages)).toBeLessThanOrEqual(7);
    expect(pages.reduce((a, b) => a + b, 0)).toBe(seeded.verdicts + seeded.failures);
  });

  it('writes the same rows as Parquet, JSONL and CSV', async () => {
    const files = Object.fromEntries((['parquet', 'jsonl', 'csv'] as const).map((format) => [format, path.join(tmp, `run.${format}`)]));
    for (const format of ['parquet', 'jsonl', 'csv'] as const) await exportRun(client, prefix, runId, format, files[format]!);

    const jsonl = fs.readFileSync(files.jsonl!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(jsonl).toHaveLength(seeded.verdicts + seeded.failures);
    const verdict = jsonl.find((row) => row.status === 'verdict')!;
    expect(Object.keys(verdict)).toEqual(EXPORT_COLUMNS.map((c) => c.name));
    expect(verdict).toMatchObject({ runId, method: expect.stringMatching(/rag|fire/), model: 'gpt-4o-mini', gold: expect.stringMatching(/SUPPORTED|REFUTED|NEI/), failureReason: '' });
    expect(verdict.traceRef).toBe(`${indexName(prefix, 'verdicts')}/${verdict.workflowId as string}`);
    expect(verdict.totalTokens).toBeGreaterThan(0);
    const failed = jsonl.filter((row) => row.status === 'failed');
    expect(failed).toHaveLength(seeded.failures);
    expect(failed[0]).toMatchObject({ predicted: '', failureType: 'LlmOutputInvalid', failureReason: expect.stringMatching(/no valid verdict/), claim: expect.any(String) });
    expect(failed.some((row) => row.failureReason === 'earlier outage')).toBe(false);

    const csv = fs.readFileSync(files.csv!, 'utf8').trim().split('\n');
    expect(csv[0]).toBe(EXPORT_COLUMNS.map((c) => c.name).join(','));
    expect(csv).toHaveLength(jsonl.length + 1);

    const bytes = fs.readFileSync(files.parquet!);
    const parquet = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
    expect(parquet).toHaveLength(jsonl.length);
    const sameRow = parquet.find((row) => row.workflowId === verdict.workflowId)!;
    expect({ ...sameRow, totalTokens: Number(sameRow.totalTokens), durationMs: Number(sameRow.durationMs) }).toMatchObject({
      claim: verdict.claim,
      gold: verdict.gold,
      predicted: verdict.predicted,
      totalTokens: verdict.totalTokens,
      costUsd: verdict.costUsd,
      durationMs: verdict.durationMs,
    });
  });

  it('refuses an unknown run', async () => {
    await expect(exportRun(client, prefix, 'no-such-run', 'jsonl', path.join(tmp, 'none.jsonl'))).rejects.toThrow(RunNotFoundError);
  });
});
