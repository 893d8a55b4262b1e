import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunReport, writeReport, type RunReport } from '../../src/report';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { indexName } from '../../src/es/indices';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { runConfigSchema } from '../../src/runs/run-manifest';
import type { SweepInput, SweepProgress } from '../../src/shared/sweep';
import type { Verdict } from '../../src/shared/verify';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const CLAIMS = 4;
const REPEATS = 3;

/**
 * `repeats: 3` against real Temporal and Elasticsearch with the simulator: a run verified once is
 * grown to three repeats. Repeat 0 keeps the identity of the single verification (reused), repeats
 * 1 and 2 are verifications of their own whose LLM requests differ (seed + r, the repeat in the
 * request), so the request cache never answers them with repeat 0's answers; the report shows
 * mean ± sd across repeats.
 */
describe('a sweep with repeats', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-repeats-'));
  const runId = uniqueName('repeats');
  let once: SweepProgress;
  let thrice: SweepProgress;
  let verdicts: Verdict[];
  let report: RunReport;
  /** Requests the simulator answered for the single run. */
  let requestsBefore: number;

  async function sweep(repeats: number | undefined): Promise<{ input: SweepInput; result: SweepProgress }> {
    const { config, deps, client } = harness;
    const run = runConfigSchema.parse({
      run: runId,
      datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: CLAIMS }],
      methods: ['rag'],
      models: ['gpt-4o-mini'],
      concurrency: 3,
      ...(repeats !== undefined ? { repeats } : {}),
    });
    const input = buildSweepInput(config, run, tmp);
    await deps.runs.save(await buildRunManifest(config, run, input));
    const { handle } = await startSweep(client, config.temporal.taskQueue, input, { rerunFinished: true });
    return { input, result: await handle.result() };
  }

  beforeAll(async () => {
    harness = await startWorkerHarness('repeats', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
    ({ result: once } = await sweep(undefined));
    requestsBefore = harness.simulator.requests().length;
    ({ result: thrice } = await sweep(REPEATS));
    await harness.es.indices.refresh({ index: indexName(harness.prefix, 'verdicts') });
    const response = await harness.es.search<Verdict>({ index: indexName(harness.prefix, 'verdicts'), size: 1000, query: { term: { runId } } });
    verdicts = response.hits.hits.map((hit) => hit._source!);
    report = await loadRunReport(harness.es, harness.prefix, runId, { bootstrap: { resamples: 100 } });
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('verifies every (claim, method, model) once per repeat, reusing the single run as repeat 0', () => {
    expect(once).toMatchObject({ status: 'completed', total: CLAIMS, done: CLAIMS, failed: 0 });
    expect(thrice).toMatchObject({ status: 'completed', total: CLAIMS * REPEATS, done: CLAIMS * REPEATS, reused: CLAIMS, failed: 0 });
    expect(verdicts).toHaveLength(CLAIMS * REPEATS);
    expect(new Set(verdicts.map((v) => v.workflowId)).size).toBe(CLAIMS * REPEATS);
    const repeatsByClaim = new Map<string, number[]>();
    for (const verdict of verdicts) repeatsByClaim.set(verdict.claimId, [...(repeatsByClaim.get(verdict.claimId) ?? []), verdict.sampling?.repeat ?? 0]);
    expect(repeatsByClaim.size).toBe(CLAIMS);
    for (const repeats of repeatsByClaim.values()) expect(repeats.sort()).toEqual([0, 1, 2]);
  });

  it('sends each repeat its own LLM requests: seed + r, never an answer cached for another repeat', () => {
    const calls = verdicts.flatMap((verdict) => (verdict.transcript?.llmCalls ?? []).map((call) => ({ repeat: verdict.sampling?.repeat ?? 0, seed: verdict.seed, call })));
    expect(calls.length).toBeGreaterThanOrEqual(CLAIMS * REPEATS);
    const hashes = calls.map(({ call }) => call.requestHash);
    expect(new Set(hashes).size).toBe(hashes.length);
    const base = verdicts.find((verdict) => !verdict.sampling?.repeat)!.seed;
    for (const { repeat, seed, call } of calls) {
      expect(seed).toBe(base + repeat);
      expect(call.cached ?? false).toBe(false);
    }
    // The simulator saw exactly repeats 1 and 2's requests (repeat 0 was reused), each one different.
    const later = calls.filter(({ repeat }) => repeat > 0).length;
    const received = harness.simulator.requests().slice(requestsBefore).filter((request) => request.path.includes('chat/completions'));
    expect(received).toHaveLength(later);
    expect(new Set(received.map((request) => request.requestHash)).size).toBe(later);
  });

  it('reports mean ± sd and a 95% interval across repeats next to the bootstrap CI, majority vote and pass^k', async () => {
    const [group] = report.groups;
    expect(report.groups).toHaveLength(1);
    expect(group!.counts.claims).toBe(CLAIMS * REPEATS);
    const repeats = group!.repeats!;
    expect(repeats.k).toBe(REPEATS);
    expect(repeats.accuracy.values).toHaveLength(REPEATS);
    const perRepeat = [0, 1, 2].map((r) => report.claims.filter((row) => row.repeat === r));
    expect(repeats.accuracy.values).toEqual(perRepeat.map((rows) => rows.filter((row) => row.correct).length / rows.length));
    expect(repeats.accuracy.mean).toBeCloseTo(group!.accuracy.estimate, 12);
    expect(repeats.accuracy.lower).toBeLessThanOrEqual(repeats.accuracy.mean);
    expect(repeats.accuracy.upper).toBeGreaterThanOrEqual(repeats.accuracy.mean);
    expect(repeats.passHatK).toBeLessThanOrEqual(repeats.majorityVoteAccuracy + 1e-12);

    const dir = path.join(tmp, 'report');
    await writeReport(report, dir, 'all');
    const markdown = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain('## Repeats');
    expect(markdown).toMatch(new RegExp(`\\| demo · rag · gpt-4o-mini \\| ${REPEATS} \\| \\d\\.\\d{3} ± \\d\\.\\d{3} \\[-?\\d\\.\\d{3}, \\d\\.\\d{3}\\] \\|`));
    const claimsCsv = fs.readFileSync(path.join(dir, 'claims.csv'), 'utf8').trim().split('\n');
    expect(claimsCsv[0]!.split(',').at(-1)).toBe('repeat');
  });
});
