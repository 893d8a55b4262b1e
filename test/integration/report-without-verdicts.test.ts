import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { LIMIT_REACHED_TYPE } from '../../src/shared/verification-limits';
import { runCli } from '../support/cli-process';
import { seedSyntheticRun } from '../support/synthetic-run';
import { deleteIndicesWithPrefix, SHARED_DATA, uniqueName } from '../support/test-env';

const prefix = uniqueName('report-no-verdicts');
const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-report-no-verdicts-'));
const env = { ES_URL: process.env.ES_URL ?? 'http://127.0.0.1:9200', ES_INDEX_PREFIX: prefix };
const runId = 'only-failures';

/** `verity report` of runs whose every verification ended without a verdict, and of ad-hoc runs, as its own process on real Elasticsearch. */
describe('report of a run without verdicts', () => {
  beforeAll(async () => {
    await seedSyntheticRun(es, prefix, { runId, datasets: [{ name: 'fever', file: path.join(SHARED_DATA, 'dev', 'fever.jsonl'), sample: 2 }], methods: ['rag'], models: ['gpt-4o-mini'] });
    const verdicts = (await es.search<{ workflowId: string; claimId: string }>({ index: indexName(prefix, 'verdicts'), size: 10, query: { term: { runId } } })).hits.hits.map((hit) => hit._source!);
    expect(verdicts).toHaveLength(2);
    for (const verdict of verdicts) await es.delete({ index: indexName(prefix, 'verdicts'), id: verdict.workflowId, refresh: 'wait_for' });
    const [limited, failed] = verdicts;
    const failure = (verdict: { workflowId: string; claimId: string }, type: string, reason: string, spend: object) => ({
      runId, workflowId: verdict.workflowId, claimId: verdict.claimId, dataset: 'fever', method: 'rag', model: 'gpt-4o-mini', reason, type, failedAt: '2026-01-01T00:05:00.000Z', ...spend,
    });
    await es.index({ index: indexName(prefix, 'run-failures'), id: limited!.workflowId, document: failure(limited!, LIMIT_REACHED_TYPE, 'tokens limit 50 reached', { tokens: 60, costUsd: 0.001 }) });
    await es.index({ index: indexName(prefix, 'run-failures'), id: failed!.workflowId, document: failure(failed!, 'LlmOutputInvalid', 'no valid verdict after 3 attempts', {}), refresh: 'wait_for' });
    // An ad-hoc run: a verdict of `verity verify --run adhoc-x`, which writes no manifest.
    await es.index({ index: indexName(prefix, 'verdicts'), id: 'verify/adhoc-x/c1', document: { workflowId: 'verify/adhoc-x/c1', runId: 'adhoc-x', claimId: 'c1', method: 'rag', model: 'm', claim: 'c', label: 'NEI' }, refresh: 'wait_for' });
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('reports the verifications as LIMIT_REACHED and failed', async () => {
    const out = path.join(tmp, 'report');
    const result = await runCli(['report', runId, '--out', out, '--format', 'all', '--no-explorer'], env);
    expect(result.code, result.stderr).toBe(0);
    const csv = fs.readFileSync(path.join(out, 'claims.csv'), 'utf8');
    expect(csv).toMatch(/,limit-reached,.*LIMIT_REACHED/);
    expect(csv).toMatch(/,failed,/);
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('LIMIT_REACHED');
  });

  it('says in one line how to look at an ad-hoc run', async () => {
    const result = await runCli(['report', 'adhoc-x', '--out', path.join(tmp, 'adhoc')], env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/verity verify --run.*verity view adhoc-x/);
  });

  it('refuses an empty run id in one line instead of printing Elasticsearch\'s raw answer', async () => {
    for (const args of [['report', ''], ['export', '', '--format', 'jsonl', '--out', '-'], ['diff', runId, '']]) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/a run id must not be empty/);
      expect(result.stderr).not.toContain('{');
    }
  });
});
