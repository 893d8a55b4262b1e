import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPoisoningHarness } from '../../eval/poisoning/harness';
import { createEsClient } from '../../src/es/client';
import { SHARED_DATA } from '../support/test-env';
import { FIXTURE_CLAIMS, FIXTURE_CORPUS, hasFixtureCorpus } from '../support/tool-indices';

describe.skipIf(!hasFixtureCorpus)('poisoning harness on real Temporal and Elasticsearch (simulator LLM)', () => {
  it('runs rag on clean vs poisoned indices, with fact-check pages filtered and allowed, and measures the flips', async () => {
    const report = await runPoisoningHarness({
      datasetFile: FIXTURE_CLAIMS,
      corpus: { wiki: FIXTURE_CORPUS, web: path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl') },
      methods: ['rag'],
      claims: 3,
      perClaim: 5,
      targets: ['wiki', 'web'],
      factCheck: ['filtered', 'allowed'],
      concurrency: 3,
      timeoutMs: 120_000,
      llm: 'simulator',
    });

    expect(report.claims).toHaveLength(3);
    expect(report.skipped).toEqual([]);
    expect(report.outcomes).toHaveLength(3 * 2 * 2);
    expect(report.outcomes.every((o) => o.label !== undefined)).toBe(true);
    // The injected passages restate the claim, so BM25 ranks them into rag's top 5 on the poisoned corpus only.
    expect(report.outcomes.filter((o) => o.corpus === 'poisoned').every((o) => o.poisonSeen)).toBe(true);
    expect(report.outcomes.filter((o) => o.corpus === 'clean').some((o) => o.poisonSeen)).toBe(false);
    // The simulator reads a passage that states the claim as support.
    expect(report.outcomes.filter((o) => o.corpus === 'poisoned').every((o) => o.label === 'SUPPORTED')).toBe(true);
    const filtered = report.summaries.find((s) => s.method === 'rag' && s.factCheck === 'filtered')!;
    expect(filtered.pairs).toBe(3);
    expect(filtered.poisonedAccuracy).toBe(0);
    expect(filtered.flipToSupportedRate).toBe(filtered.flipRate);
    expect(filtered.flipRate).toBeCloseTo(report.outcomes.filter((o) => o.corpus === 'clean' && o.factCheck === 'filtered' && o.label !== 'SUPPORTED').length / 3, 10);

    // Every condition's indices are removed afterwards.
    const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    const left = await es.indices.get({ index: `${report.runId}-*`, allow_no_indices: true, ignore_unavailable: true });
    await es.close();
    expect(Object.keys(left)).toEqual([]);
  });
});
