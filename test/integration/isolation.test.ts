import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import type { Verdict } from '../../src/shared/verify';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { runCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/** Generous: each process bundles its workflows (seconds of CPU) and the machine may be shared. */
const CLI_TIMEOUT_MS = 300_000;

/** Processes with different configurations, side by side against the shared Temporal and Elasticsearch. */
describe('identity and isolation across processes (real Temporal + Elasticsearch, CLI processes)', () => {
  let es: EsClient;
  let endpoints: RunningSimulator[];
  const prefixes = [uniqueName('iso-a'), uniqueName('iso-b')];
  // One base task queue for every process, as with the default TEMPORAL_TASK_QUEUE.
  const baseQueue = uniqueName('iso-q');

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    endpoints = await Promise.all([startSimulator({ keepBodies: true }), startSimulator({ keepBodies: true })]);
    for (const prefix of prefixes) await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
  });

  afterAll(async () => {
    await Promise.all(endpoints.map((endpoint) => endpoint.close()));
    for (const prefix of prefixes) await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  async function verdictsIn(prefix: string): Promise<Verdict[]> {
    await es.indices.refresh({ index: indexName(prefix, 'verdicts') });
    const response = await es.search<Verdict>({ index: indexName(prefix, 'verdicts'), size: 100 });
    return response.hits.hits.map((hit) => hit._source!);
  }

  it('a demo run on the simulator is never served to a real endpoint: the endpoint receives the calls', async () => {
    const env = { ES_INDEX_PREFIX: prefixes[0]!, TEMPORAL_TASK_QUEUE: baseQueue };
    const simulated = await runCli(['demo', '--json'], env, CLI_TIMEOUT_MS);
    expect(simulated.code, simulated.stderr).toBe(0);
    expect(simulated.stderr).toMatch(/simulator/);

    const endpoint = endpoints[1]!;
    const before = endpoint.arrivals().length;
    const real = await runCli(['demo', '--json'], { ...env, OPENAI_BASE_URL: endpoint.url, OPENAI_API_KEY: 'sk-test' }, CLI_TIMEOUT_MS);
    expect(real.code, real.stderr).toBe(0);
    const demoClaims = 10;
    expect(endpoint.arrivals().length - before).toBeGreaterThanOrEqual(demoClaims);
    expect(real.stderr).not.toMatch(/attached to/);
  }, 2 * CLI_TIMEOUT_MS);

  it('six concurrent processes (two prefixes × two endpoints): every verdict in its own prefix, every call at its own endpoint', async () => {
    const runId = uniqueName('iso-run');
    const processes = [0, 1, 2, 3, 4, 5].map((i) => ({
      prefix: prefixes[i % 2]!,
      endpoint: endpoints[Math.floor(i / 2) % 2]!,
      claim: `Process ${i} checks that the Eiffel Tower is in Paris, claim number ${i}.`,
      claimId: `claim-${i}`,
    }));
    const results = await Promise.all(
      processes.map((p) =>
        runCli(['verify', p.claim, '--run', runId, '--claim-id', p.claimId, '--json'], {
          ES_INDEX_PREFIX: p.prefix,
          TEMPORAL_TASK_QUEUE: baseQueue,
          OPENAI_BASE_URL: p.endpoint.url,
          OPENAI_API_KEY: 'sk-test',
        }, CLI_TIMEOUT_MS),
      ),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);

    for (const p of processes) {
      const own = (await verdictsIn(p.prefix)).filter((verdict) => verdict.runId === runId);
      const other = (await verdictsIn(prefixes.find((prefix) => prefix !== p.prefix)!)).filter((verdict) => verdict.runId === runId);
      expect(own.map((verdict) => verdict.claim)).toContain(p.claim);
      expect(other.map((verdict) => verdict.claim)).not.toContain(p.claim);

      const promptsAt = (endpoint: RunningSimulator) => endpoint.arrivals().filter((arrival) => arrival.body?.includes(p.claim)).length;
      expect(promptsAt(p.endpoint)).toBeGreaterThan(0);
      expect(promptsAt(endpoints.find((endpoint) => endpoint !== p.endpoint)!)).toBe(0);
    }

    // Reusing one of these claim ids for another claim is refused with one line, before any work starts.
    const reused = processes[0]!;
    const refused = await runCli(['verify', 'Marie Curie won a Nobel Prize.', '--run', runId, '--claim-id', reused.claimId], {
      ES_INDEX_PREFIX: reused.prefix,
      TEMPORAL_TASK_QUEUE: baseQueue,
      OPENAI_BASE_URL: reused.endpoint.url,
      OPENAI_API_KEY: 'sk-test',
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      `verity: claim id "${reused.claimId}" of run "${runId}" already names another claim ("${reused.claim}"); choose another --claim-id`,
    ]);
    expect(refused.stdout).toBe('');
  }, 2 * CLI_TIMEOUT_MS);
});
