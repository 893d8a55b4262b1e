import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import type { RunComparisons } from '../../src/report';
import type { Verdict } from '../../src/shared/verify';
import { runCli } from '../support/cli-process';
import { DEMO_CLAIMS, DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/**
 * `verity compare` on runs made by `verity sweep run` with the simulator against real Temporal and
 * Elasticsearch: the discordant counts and disagreements it reports are those of the stored verdicts
 * against the dataset's gold labels, and report.html lists them with links to both transcripts.
 */
describe('verity compare on a simulator sweep', () => {
  const prefix = uniqueName('compare');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-compare-'));
  const runId = uniqueName('compare-run');
  const smallRunId = uniqueName('compare-small');
  const gold = new Map(
    fs
      .readFileSync(DEMO_CLAIMS, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; label_norm: string })
      .map((claim) => [claim.id, claim.label_norm]),
  );
  let es: EsClient;
  let verdicts: Verdict[];

  const writeConfig = (name: string, config: object): string => {
    const file = path.join(dir, `${name}.yaml`);
    fs.writeFileSync(file, YAML.stringify(config));
    return file;
  };

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    const datasets = [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }];
    const big = writeConfig('big', { run: runId, datasets, methods: ['rag', 'llm-only'], models: ['gpt-4o-mini', 'gpt-4o'], concurrency: 8 });
    const sweep = await runCli(['sweep', 'run', big], env, 600_000);
    expect(sweep.code, sweep.stderr).toBe(0);
    const small = writeConfig('small', { run: smallRunId, datasets: [{ ...datasets[0], sample: 4 }], methods: ['rag'], models: ['gpt-4o-mini'], concurrency: 4 });
    const smallSweep = await runCli(['sweep', 'run', small], env, 600_000);
    expect(smallSweep.code, smallSweep.stderr).toBe(0);
    await es.indices.refresh({ index: indexName(prefix, 'verdicts') });
    const response = await es.search<Verdict>({ index: indexName(prefix, 'verdicts'), size: 1000, query: { term: { runId } } });
    verdicts = response.hits.hits.map((hit) => hit._source!);
  }, 900_000);

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const labelOf = (method: string, model: string, claimId: string) => verdicts.find((v) => v.method === method && v.model === model && v.claimId === claimId);

  it('compares every pair of methods and of models on the same claims, as the stored verdicts say', async () => {
    expect(verdicts).toHaveLength(40);
    const result = await runCli(['compare', runId, '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const comparisons = JSON.parse(result.stdout) as RunComparisons;
    expect(comparisons.comparisons.map((c) => `${c.varies}: ${c.a.method}·${c.a.model} vs ${c.b.method}·${c.b.model}`)).toEqual([
      'method: rag·gpt-4o-mini vs llm-only·gpt-4o-mini',
      'method: rag·gpt-4o vs llm-only·gpt-4o',
      'model: rag·gpt-4o-mini vs rag·gpt-4o',
      'model: llm-only·gpt-4o-mini vs llm-only·gpt-4o',
    ]);
    for (const c of comparisons.comparisons) {
      expect(c).toMatchObject({ dataset: 'demo', claims: 10, onlyInA: 0, onlyInB: 0, note: null });
      // Recomputed from the verdicts in Elasticsearch and the dataset's gold labels.
      const right = (side: typeof c.a, claimId: string) => labelOf(side.method, side.model, claimId)?.label === gold.get(claimId);
      const claims = [...gold.keys()];
      expect(c.mcnemar).toMatchObject({ onlyA: claims.filter((id) => right(c.a, id) && !right(c.b, id)).length, onlyB: claims.filter((id) => !right(c.a, id) && right(c.b, id)).length });
      expect(c.accuracyA).toBeCloseTo(claims.filter((id) => right(c.a, id)).length / 10, 12);
      expect(c.accuracyB! - c.accuracyA!).toBeCloseTo(c.difference!.estimate, 12);
      expect(c.difference!.lower).toBeLessThanOrEqual(c.difference!.estimate);
      expect(c.difference!.upper).toBeGreaterThanOrEqual(c.difference!.estimate);
      const differing = claims.filter((id) => labelOf(c.a.method, c.a.model, id)?.label !== labelOf(c.b.method, c.b.model, id)?.label).sort();
      expect(c.disagreements.map((d) => d.claimId).sort()).toEqual(differing);
      for (const d of c.disagreements) {
        expect(d.a.workflowIds).toEqual([labelOf(c.a.method, c.a.model, d.claimId)!.workflowId]);
        expect(d.b.workflowIds).toEqual([labelOf(c.b.method, c.b.model, d.claimId)!.workflowId]);
      }
    }
    // The simulator's methods answer some claims differently (else this test would show nothing).
    expect(comparisons.comparisons.some((c) => c.disagreements.length > 0)).toBe(true);
    // Seeded: the same command gives the same intervals.
    const again = JSON.parse((await runCli(['compare', runId, '--json'], env)).stdout) as RunComparisons;
    expect(again.comparisons.map((c) => c.difference)).toEqual(comparisons.comparisons.map((c) => c.difference));
  });

  it('compares against a baseline method, or another run, and notes where the samples differ', async () => {
    const byMethod = await runCli(['compare', runId, '--baseline', 'llm-only'], env);
    expect(byMethod.code, byMethod.stderr).toBe(0);
    expect(byMethod.stderr).toContain('verity: Simulator run: these numbers exercise the pipeline');
    expect(byMethod.stdout).toContain(`paired comparisons of run ${runId} against method llm-only`);
    expect(byMethod.stdout).toContain('| demo | llm-only · gpt-4o-mini | rag · gpt-4o-mini | 10 |');
    expect(byMethod.stdout).not.toContain('| demo | rag · gpt-4o-mini | rag · gpt-4o |');

    const byRun = await runCli(['compare', smallRunId, '--baseline', runId, '--json'], env);
    expect(byRun.code, byRun.stderr).toBe(0);
    const runs = JSON.parse(byRun.stdout) as RunComparisons;
    expect(runs.comparisons).toHaveLength(1);
    expect(runs.comparisons[0]).toMatchObject({ varies: 'run', a: { runId, method: 'rag', model: 'gpt-4o-mini' }, b: { runId: smallRunId }, claims: 4, onlyInA: 6, onlyInB: 0 });
    expect(runs.comparisons[0]!.note).toMatch(/^paired over the 4 claims both scored; 6 scored only by run /);
    expect(runs.notes).toHaveLength(3);

    const unknown = await runCli(['compare', runId, '--baseline', 'no-such-thing'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^verity: --baseline no-such-thing is neither a method \(rag, llm-only\) nor a model \(gpt-4o-mini, gpt-4o\) of run .*, and not a run: unknown run "no-such-thing"/);
  });

  it('report.html has the comparisons, each disagreement linked to both transcripts in explorer.html', async () => {
    const out = path.join(dir, 'report');
    const written = await runCli(['report', runId, '--out', out, '--format', 'html'], env);
    expect(written.code, written.stderr).toBe(0);
    const html = fs.readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2 id="comparisons">Paired comparisons</h2>');
    const comparisons = JSON.parse((await runCli(['compare', runId, '--json'], env)).stdout) as RunComparisons;
    for (const d of comparisons.comparisons.flatMap((c) => c.disagreements)) {
      for (const id of [...d.a.workflowIds, ...d.b.workflowIds]) expect(html).toContain(`href="explorer.html#claim=${encodeURIComponent(id)}"`);
    }
    // The explorer beside it holds those transcripts.
    const explorer = fs.readFileSync(path.join(out, 'explorer.html'), 'utf8');
    const [first] = comparisons.comparisons.flatMap((c) => c.disagreements);
    expect(explorer).toContain(JSON.stringify(first!.a.workflowIds[0]).slice(1, -1));
  });
});
