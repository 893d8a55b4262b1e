import crypto from 'node:crypto';
import type { Client as EsClient } from '@elastic/elasticsearch';
import type { Client } from '@temporalio/client';
import { buildSweepInput, startSweep } from '../client/start-sweep';
import { connectTemporal } from '../client/temporal';
import { loadConfig } from '../config/config';
import { indexName } from '../es/indices';
import type { Logger } from '../logging/logger';
import { RunClaimStore } from '../runs/run-claim-store';
import { RunFailureStore } from '../runs/run-failure-store';
import type { RunConfig } from '../runs/run-manifest';
import { startSimulator } from '../simulator/server';
import { SEARCH_ATTRIBUTES } from '../shared/constants';
import { startWorker } from '../worker/run-worker';
import { pairKey } from './earlier-runs';
import type { ClaimUsage } from './plan-figures';

/** The corpora a pilot reads from the real prefix (through aliases); everything it writes stays under its own. */
const READ_ONLY_CORPORA = ['wiki', 'web', 'scifact'] as const;

export interface PilotResult {
  /** Per rowKey (the config's dataset by position, method, model): the usage of each verified pilot claim. */
  samples: Map<string, ClaimUsage[]>;
  /** Per the same key: how many pilot verifications failed, and the first reason. */
  failed: Map<string, { count: number; reason: string }>;
}

/** The plan was interrupted (Ctrl-C, SIGTERM) while its pilot ran: the pilot's workflows are stopped and its indices deleted. */
export class PlanInterruptedError extends Error {
  override name = 'PlanInterruptedError';
}

/** Rejects (PlanInterruptedError) once `signal` aborts; never settles otherwise. */
function interruption(signal: AbortSignal | undefined, pilotRunId: string): Promise<never> {
  return new Promise<never>((_, reject) => {
    const fail = () => reject(new PlanInterruptedError(`interrupted: pilot ${pilotRunId} stopped and its indices deleted; no plan`));
    if (signal?.aborted) fail();
    else signal?.addEventListener('abort', fail, { once: true });
  });
}

/** A row of the plan: the config's dataset (by its position: names may repeat), method and model. */
export function rowKey(datasetPosition: number, method: string, model: string): string {
  return `${datasetPosition}\u0000${pairKey(method, model)}`;
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
  /** Aborting it stops the pilot: its workflows are terminated and its indices deleted (PlanInterruptedError). */
  signal?: AbortSignal;
}): Promise<PilotResult> {
  const id = crypto.randomBytes(4).toString('hex');
  const pilotPrefix = `${options.prefix}-plan-${id}`;
  const interrupted = interruption(options.signal, `plan-${id}`);
  interrupted.catch(() => undefined);
  const unlessInterrupted = <T>(step: Promise<T>): Promise<T> => Promise.race([step, interrupted]);
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
      // A stratified dataset is piloted on a plain sample of the same size.
      datasets: options.run.datasets.map(({ stratify: _stratify, ...dataset }) => ({ ...dataset, sample: Math.min(dataset.sample ?? Infinity, options.claimsPerDataset) })),
      budget: {},
      policies: undefined,
      // Per-claim figures come from one verification per claim.
      repeats: undefined,
      // The pilot measures tokens and calls, which batches do not change; direct calls answer at once.
      batch: undefined,
    };
    const input = buildSweepInput(config, pilotRun, options.configDir);
    await unlessInterrupted(Promise.resolve());
    const worker = await startWorker(config, options.logger);
    const client = await connectTemporal(config);
    let sweepId: string | undefined;
    try {
      const { handle } = await startSweep(client, config.temporal.taskQueue, input);
      sweepId = handle.workflowId;
      await unlessInterrupted(handle.result());
    } catch (err) {
      if (sweepId !== undefined) await terminatePilot(client, sweepId, pilotRun.run);
      throw err;
    } finally {
      await client.connection.close();
      // A signal may have begun the worker's shutdown already (Temporal's runtime listens for SIGINT and SIGTERM).
      await worker.shutdown().catch(() => worker.done.catch(() => undefined));
    }
    return await readPilot(options.es, pilotPrefix, pilotRun.run);
  } finally {
    await simulator.close();
    if (aliases.length > 0) await options.es.indices.deleteAlias({ index: aliases.map((a) => a.index), name: aliases.map((a) => a.name) }, { ignore: [404] });
    await deletePilotIndices(options.es, pilotPrefix);
  }
}

/** Terminates the pilot's sweep and then its verifications (they are started to outlive their parent). */
async function terminatePilot(client: Client, sweepId: string, pilotRunId: string): Promise<void> {
  const reason = 'the plan was interrupted';
  await client.workflow.getHandle(sweepId).terminate(reason).catch(() => undefined);
  const query = `${SEARCH_ATTRIBUTES.run} = '${pilotRunId}' AND ExecutionStatus = 'Running'`;
  try {
    for await (const execution of client.workflow.list({ query })) {
      await client.workflow.getHandle(execution.workflowId, execution.runId).terminate(reason).catch(() => undefined);
    }
  } catch {
    // Listing needs the search attribute: without it, the verifications stay on the pilot's queue, which no worker polls.
  }
}

async function readPilot(es: EsClient, pilotPrefix: string, runId: string): Promise<PilotResult> {
  const positions = new Map<string, number>();
  for (const claim of await new RunClaimStore(es, indexName(pilotPrefix, 'run-claims')).page(runId, 0, 10_000)) positions.set(claim.claimId, claim.datasetPosition);
  const verdictIndex = indexName(pilotPrefix, 'verdicts');
  const samples = new Map<string, ClaimUsage[]>();
  if (await es.indices.exists({ index: verdictIndex })) {
    await es.indices.refresh({ index: verdictIndex });
    const response = await es.search<{ claimId: string; method: string; model: string; usage: ClaimUsage }>({
      index: verdictIndex,
      size: 10_000,
      query: { term: { runId } },
      _source: ['claimId', 'method', 'model', 'usage'],
    });
    for (const hit of response.hits.hits) {
      const verdict = hit._source!;
      const key = rowKey(positions.get(verdict.claimId) ?? -1, verdict.method, verdict.model);
      const usage = { llmCalls: verdict.usage.llmCalls, promptTokens: verdict.usage.promptTokens, completionTokens: verdict.usage.completionTokens };
      samples.set(key, [...(samples.get(key) ?? []), usage]);
    }
  }
  const failed = new Map<string, { count: number; reason: string }>();
  const failureIndex = indexName(pilotPrefix, 'run-failures');
  if (await es.indices.exists({ index: failureIndex })) {
    await es.indices.refresh({ index: failureIndex });
    for (const failure of await new RunFailureStore(es, failureIndex).list(runId)) {
      const key = rowKey(positions.get(failure.claimId) ?? -1, failure.method, failure.model);
      failed.set(key, { count: (failed.get(key)?.count ?? 0) + 1, reason: failed.get(key)?.reason ?? failure.reason });
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
