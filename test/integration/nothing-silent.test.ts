import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { runCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/** Inputs that used to be dropped or reinterpreted without a word now fail (or are reported) with one line each. */
describe('nothing silent (CLI processes against real Temporal + Elasticsearch)', () => {
  const prefix = uniqueName('silent');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-silent-'));
  let es: EsClient;

  const claimLine = (id: string, claim: string) => JSON.stringify({ id, dataset: 'demo', claim, label: 'SUPPORTED', label_norm: 'SUPPORTED' });
  function sweepConfig(name: string, body: string): string {
    const file = path.join(dir, `${name}.yaml`);
    fs.writeFileSync(file, body);
    return file;
  }

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    // 11 lines: 5 claims, then an empty claim, a duplicate id, broken JSON, a missing claim, and a duplicate again.
    const lines = [
      ...[1, 2, 3, 4, 5].map((i) => claimLine(`c${i}`, `The Eiffel Tower is in Paris (${i}).`)),
      claimLine('c6', '   '),
      claimLine('c1', 'A duplicate id.'),
      '{"id": "c7", "claim": ',
      JSON.stringify({ id: 'c8', dataset: 'demo', label: 'SUPPORTED' }),
      claimLine('c2', 'Another duplicate.'),
      claimLine('c9', 'The Statue of Liberty is in New York.'),
    ];
    fs.writeFileSync(path.join(dir, 'claims.jsonl'), `${lines.join('\n')}\n`);
    fs.writeFileSync(path.join(dir, 'not-a-dataset.jsonl'), '{"hello": "world"}\n{"also": 1}\n');
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const datasetsYaml = (file: string) => `datasets:\n  - { name: demo, file: ${file}, format: verity }\nmethods: [rag]\nmodels: [gpt-4o-mini]\n`;

  it('rejects unknown sweep-config keys with a "did you mean"', async () => {
    const budget = await runCli(['sweep', 'run', sweepConfig('budjet', `run: ${uniqueName('r')}\n${datasetsYaml('claims.jsonl')}budjet: { usd: 1 }\n`)], env);
    expect(budget.code).toBe(2);
    expect(budget.stderr).toMatch(/: \(root\): unknown key "budjet"; did you mean "budget"\?\n$/);

    const concurrency = await runCli(['sweep', 'run', sweepConfig('concurency', `run: ${uniqueName('r')}\n${datasetsYaml('claims.jsonl')}concurency: 3\n`)], env);
    expect(concurrency.stderr).toMatch(/unknown key "concurency"; did you mean "concurrency"\?/);

    const parameters = await runCli(['sweep', 'run', sweepConfig('params', `run: ${uniqueName('r')}\n${datasetsYaml('claims.jsonl')}parameters: { mermiad: { memory: off } }\n`)], env);
    expect(parameters.stderr).toMatch(/parameters: unknown key "mermiad"; did you mean "mermaid"\?/);
  });

  it('reports skipped dataset lines with line numbers before starting, fails on them with strict: true, and refuses a file that is not a dataset', async () => {
    const strict = await runCli(['sweep', 'run', sweepConfig('strict', `run: ${uniqueName('r')}\n${datasetsYaml('claims.jsonl')}strict: true\n`)], env);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/claims\.jsonl: line 6: .*strict: true/);

    const notDataset = await runCli(['sweep', 'run', sweepConfig('nodata', `run: ${uniqueName('r')}\n${datasetsYaml('not-a-dataset.jsonl')}`)], env);
    expect(notDataset.code).toBe(2);
    expect(notDataset.stderr).toMatch(/not-a-dataset\.jsonl: no claims found/);

    const runId = uniqueName('r');
    const lenient = await runCli(['sweep', 'run', sweepConfig('lenient', `run: ${runId}\n${datasetsYaml('claims.jsonl')}`), '--detach'], env);
    const temporal = new Client({ connection: await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' }) });
    try {
      expect(lenient.code, lenient.stderr).toBe(0);
      for (const line of [6, 7, 8, 9, 10]) expect(lenient.stderr).toMatch(new RegExp(`claims\\.jsonl: line ${line} skipped: `));
      expect(lenient.stderr).toMatch(/line 7 skipped: duplicate id c1/);
      expect(lenient.stderr).toMatch(/5 dataset record\(s\) skipped/);
      expect(lenient.stderr.indexOf('skipped')).toBeLessThan(lenient.stderr.indexOf('started sweep/'));
    } finally {
      const started = /started (sweep\/\S+)/.exec(lenient.stderr)?.[1];
      if (started) await temporal.workflow.getHandle(started).terminate('test over');
      await temporal.connection.close();
    }
  });

  it('dense retrieval on an index without vectors fails with one line naming --embed', async () => {
    const dense = await runCli(['verify', 'The Eiffel Tower is in Paris.', '--retrieval-mode', 'dense'], env);
    expect(dense.code).toBe(2);
    expect(dense.stderr.trim().split('\n')).toEqual([
      `verity: index "${prefix}-wiki" has no passage embeddings: dense and hybrid retrieval need it ingested with --embed (\`verity ingest wiki <file> --embed\`), or use --retrieval-mode bm25`,
    ]);
  });
});
