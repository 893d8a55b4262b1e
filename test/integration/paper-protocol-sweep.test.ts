import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { RunReport } from '../../src/report';
import { pythonRound } from '../../src/metrics';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { readManifest } from '../../src/runs/read-run';
import { runCli } from '../support/cli-process';
import { DEMO_CLAIMS, DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/**
 * A `protocol: paper` sweep run by `verity sweep run` against real Temporal and Elasticsearch with the
 * simulator: the manifest records the protocol, and `verity report` computes macro/weighted F1 from
 * the rounded class F1s (EMULATE's eval.ipynb) and says so.
 */
describe('a protocol: paper sweep', () => {
  const prefix = uniqueName('paperproto');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-paperproto-'));
  const runId = uniqueName('paper-protocol');
  let es: EsClient;
  let config: string;

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    config = path.join(dir, 'paper.yaml');
    fs.writeFileSync(
      config,
      YAML.stringify({ run: runId, protocol: 'paper', datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }], methods: ['rag'], models: ['gpt-4o-mini'], concurrency: 4 }),
    );
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records the protocol in the manifest and reports macro/weighted F1 from rounded class F1s, stating the convention', async () => {
    const run = await runCli(['sweep', 'run', config], env);
    expect(run.code, run.stderr).toBe(0);
    expect((await readManifest(es, prefix, runId)).config.protocol).toBe('paper');

    const json = await runCli(['report', runId, '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as RunReport;
    expect(report.protocol).toBe('paper');
    expect(report.conventions.find((c) => c.metric === 'rounding (protocol: paper)')?.convention).toMatch(/macro- and weighted-F1 from the rounded class F1s/);
    const [group] = report.groups;
    expect(group?.counts.claims).toBe(10);
    // The papers' convention, recomputed from the report's unrounded class metrics.
    const round = (x: number) => pythonRound(x, 2);
    const present = group!.perClass.filter((c, i) => c.support + group!.confusion.counts.reduce((sum, row) => sum + (row[i] ?? 0), 0) > 0);
    const macro = round(present.reduce((sum, c) => sum + round(c.f1), 0) / present.length);
    const weighted = round(group!.perClass.reduce((sum, c) => sum + round(c.f1) * c.support, 0) / group!.counts.scored);
    expect(group!.paper).toMatchObject({ macroF1: macro, weightedF1: weighted });
    expect(group!.paper!.perClass.map((c) => c.f1)).toEqual(group!.perClass.map((c) => round(c.f1)));

    const out = path.join(dir, 'report');
    const written = await runCli(['report', runId, '--out', out, '--format', 'md', '--no-explorer'], env);
    expect(written.code, written.stderr).toBe(0);
    const markdown = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(markdown).toContain('| protocol | paper |');
    expect(markdown).toContain('macro-F1 (paper) | weighted-F1 (paper)');
    expect(markdown).toContain(`| ${macro.toFixed(2)} | ${weighted.toFixed(2)} |`);
    expect(markdown).toContain('### Metric conventions');
  }, 900_000);
});
