import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { relevanceThresholdOf, SIMULATED_EMBEDDINGS_KEY } from '../../src/methods/tool-mad/relevance-thresholds';
import { projectRoot } from '../../src/project-root';
import { readManifest } from '../../src/runs/read-run';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { runCli } from '../support/cli-process';
import { DEMO_CLAIMS, DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/**
 * eval/sweeps/tool-mad.yaml's parameters on two demo claims, as `verity sweep run` processes against
 * real Temporal and Elasticsearch with the simulator: refused without passage vectors, then run with
 * them, its answer-relevance gate resolved from the calibrated table and recorded in the manifest,
 * and the report showing who decided the debates.
 */
describe('the Tool-MAD paper-protocol sweep', () => {
  const prefix = uniqueName('tmpaper');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, VERITY_WEB_SEARCH_PROVIDER: 'recorded' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-tmpaper-'));
  const runId = uniqueName('tm-paper');
  let es: EsClient;
  let config: string;

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    // The wiki index without passage vectors (no --embed), and a recorded web for the search debater.
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    const web = path.join(dir, 'web.jsonl');
    fs.writeFileSync(web, `${JSON.stringify({ id: 'web:eiffel', title: 'Eiffel Tower', text: 'The Eiffel Tower in Paris was completed in 1889 for the World Fair.', sentences: null, source: 'test-web' })}\n`);
    await ingestCorpus({ client: es, index: webIndexName(prefix), file: web, target: WEB_TARGET });
    const paper = YAML.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'sweeps', 'tool-mad.yaml'), 'utf8')) as Record<string, unknown>;
    config = path.join(dir, 'tool-mad.yaml');
    fs.writeFileSync(
      config,
      YAML.stringify({
        ...paper,
        run: runId,
        datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 2 }],
        models: ['gpt-4o-mini'],
        concurrency: 2,
      }),
    );
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start when the wiki index has no passage vectors, in one line naming --embed', async () => {
    const { code, stderr } = await runCli(['sweep', 'run', config], env);
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n').filter((line) => /passage vectors/.test(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`index "${prefix}-wiki" has no passage vectors.*--embed`));
    await expect(readManifest(es, prefix, runId)).rejects.toThrow(/unknown run/);
  });

  it('with vectors it runs, records the calibrated relevance threshold and its source in the manifest, and reports consensus vs judge', async () => {
    const ingest = await runCli(['ingest', 'wiki', DEMO_CORPUS, '--embed'], env);
    expect(ingest.code, ingest.stderr).toBe(0);
    const run = await runCli(['sweep', 'run', config], env);
    expect(run.code, run.stderr).toBe(0);

    const calibrated = relevanceThresholdOf(SIMULATED_EMBEDDINGS_KEY)!;
    const manifest = await readManifest(es, prefix, runId);
    expect(manifest.config.parameters['tool-mad']).toMatchObject({ relevanceEmbeddingModel: 'text-embedding-ada-002', relevanceThreshold: calibrated.threshold, faithfulnessThreshold: 0.7 });
    expect(manifest.calibrations).toEqual([
      { method: 'tool-mad', setting: 'relevanceThreshold', value: calibrated.threshold, embeddingModel: 'text-embedding-ada-002', from: 'table', source: calibrated.source },
    ]);
    expect(run.stderr).toContain(`relevanceThreshold ${calibrated.threshold} for embedding model text-embedding-ada-002`);

    const out = path.join(dir, 'report');
    const report = await runCli(['report', runId, '--out', out, '--format', 'md', '--no-explorer'], env);
    expect(report.code, report.stderr).toBe(0);
    const markdown = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
    const row = markdown.split('\n').find((line) => line.startsWith('| demo · tool-mad · gpt-4o-mini |') && /%/.test(line));
    // 2 debates, each decided by a consensus or by the judge.
    expect(markdown).toContain('## Debates');
    expect(row).toMatch(/^\| demo · tool-mad · gpt-4o-mini \| 2 \| \d \| \d \| \d+\.\d% \|$/);
  });
});
