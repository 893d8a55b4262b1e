import crypto from 'node:crypto';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { buildSweepInput, startSweep } from '../client/start-sweep';
import { connectTemporal } from '../client/temporal';
import { loadConfig } from '../config/config';
import { indexName } from '../es/indices';
import type { Logger } from '../logging/logger';
import { RunFailureStore } from '../runs/run-failure-store';
import type { RunConfig } from '../runs/run-manifest';
import { startSimulator } from '../simulator/server';
import { startWorker } from '../worker/run-worker';
import { pairKey } from './earlier-runs';
import type { ClaimUsage } from './plan-figures';

/** The corpora a pilot reads from the real prefix (through aliases); everything it writes stays under its own. */
const READ_ONLY_CORPORA = ['wiki', 'web', 'scifact'] as const;

export interface PilotResult {
  /** Per `<dataset>\u0000<method>\u0000<model>`: the usage of each verified pilot claim. */
  samples: Map<string, ClaimUsage[]>;
  /** Per the same key: pilot verifications that failed. */
  failed: Map<string, number>;
}

export function rowKey(dataset: string, method: string, model: string): string {
  return `${dataset}\u0000${pairKey(method, model)}`;
}

/**
 * Runs `claimsPerDataset` claims of each dataset through the sweep's methods and models on an
 * embedded simulator (no paid call), as a sweep of its own: its own run id, index prefix
 * (`<prefix>-plan-<id>`, reading the corpora through aliases) and so its own task queue, LLM cache
 * and verdicts, all deleted afterwards. Returns what each verification used.
 */
export async function runPilot(options: {
  env: NodeJS.ProcessEnv;
  es: EsClient;
  prefix: string;
  run: RunConfig;
  configDir: string;
  claimsPerDataset: number;
  logger: Logger;
}): Promise<PilotResult> {
  const id = crypto.randomBytes(4).toString('hex');
  const pilotPrefix = `${options.prefix}-plan-${id}`;
  const simulator = await startSimulator({ port: 0 });
  const aliases: { index: string; name: string }[] = [];
  try {
    for (const corpus of READ_ONLY_CORPORA) {
      const index = indexName(options.prefix, corpus);
      if (!(await options.es.indices.exists({ index }))) continue;
      const alias = { index, name: indexName(pilotPrefix, corpus) };
      await options.es.indices.putAlias(alias);
      aliases.push(alias);
    }
    const config = loadConfig({
      ...options.env,
      ES_INDEX_PREFIX: pilotPrefix,
      OPENAI_BASE_URL: simulator.url,
      OPENAI_API_KEY: 'sk-verity-pilot',
      VERITY_LLM_CACHE: 'readwrite',
      VERITY_LLM_RPS: '1000',
    });
    const pilotRun: RunConfig = {
      ...options.run,
      run: `plan-${id}`,
      datasets: options.run.datasets.map((dataset) => ({ ...dataset, sample: Math.min(dataset.sample ?? Infinity, options.claimsPerDataset) })),
      budget: {},
      policies: undefined,
    };
    const input = buildSweepInput(config, pilotRun, options.configDir);
    const worker = await startWorker(config, options.logger);
    const client = await connectTemporal(config);
    try {
      const { handle } = await startSweep(client, config.temporal.taskQueue, input);
      await handle.result();
    } finally {
      await client.connection.close();
      await worker.shutdown();
    }
    return await readPilot(options.es, pilotPrefix, pilotRun.run);
  } finally {
    await simulator.close();
    if (aliases.length > 0) await options.es.indices.deleteAlias({ index: aliases.map((a) => a.index), name: aliases.map((a) => a.name) }, { ignore: [404] });
    await deletePilotIndices(options.es, pilotPrefix);
  }
}

async function readPilot(es: EsClient, pilotPrefix: string, runId: string): Promise<PilotResult> {
  const verdictIndex = indexName(pilotPrefix, 'verdicts');
  const samples = new Map<string, ClaimUsage[]>();
  if (await es.indices.exists({ index: verdictIndex })) {
    await es.indices.refresh({ index: verdictIndex });
    const response = await es.search<{ dataset?: string; method: string; model: string; usage: ClaimUsage }>({
      index: verdictIndex,
      size: 10_000,
      query: { term: { runId } },
      _source: ['dataset', 'method', 'model', 'usage'],
    });
    for (const hit of response.hits.hits) {
      const verdict = hit._source!;
      const key = rowKey(verdict.dataset ?? '', verdict.method, verdict.model);
      const usage = { llmCalls: verdict.usage.llmCalls, promptTokens: verdict.usage.promptTokens, completionTokens: verdict.usage.completionTokens };
      samples.set(key, [...(samples.get(key) ?? []), usage]);
    }
  }
  const failed = new Map<string, number>();
  const failureIndex = indexName(pilotPrefix, 'run-failures');
  if (await es.indices.exists({ index: failureIndex })) {
    await es.indices.refresh({ index: failureIndex });
    for (const failure of await new RunFailureStore(es, failureIndex).list(runId)) {
      const key = rowKey(failure.dataset, failure.method, failure.model);
      failed.set(key, (failed.get(key) ?? 0) + 1);
    }
  }
  return { samples, failed };
}

/** Only the pilot's own indices: names are checked, so an alias can never lead to a real index. */
async function deletePilotIndices(es: EsClient, pilotPrefix: string): Promise<void> {
  const found = await es.indices.get({ index: `${pilotPrefix}-*`, allow_no_indices: true, ignore_unavailable: true, expand_wildcards: ['open', 'closed'] });
  const own = Object.keys(found).filter((name) => name.startsWith(`${pilotPrefix}-`));
  if (own.length > 0) await es.indices.delete({ index: own }, { ignore: [404] });
}
