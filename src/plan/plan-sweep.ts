import type { Client as EsClient } from '@elastic/elasticsearch';
import type { VerityConfig } from '../config/config';
import { indexName } from '../es/indices';
import { LOCAL_PRICES, isLoopbackUrl, loadPriceTable } from '../llm/prices';
import type { Logger } from '../logging/logger';
import { sampleRunClaims } from '../runs/run-claims';
import type { RunConfig } from '../runs/run-manifest';
import type { SweepInput } from '../shared/sweep';
import { earlierRunStats, pairKey, simulatorRunIds } from './earlier-runs';
import { PlanInterruptedError, rowKey, runPilot } from './pilot';
import { batchWallTime, DEFAULT_BATCH_TURNAROUND_MS } from './batch-wall-time';
import { type Plan, type PlanRow, planRow, summarisePlan, usageStatsOf } from './plan-figures';

export const DEFAULT_PILOT_CLAIMS = 3;

export interface PlanOptions {
  config: VerityConfig;
  /** The environment the configuration was loaded from (the pilot's is derived from it). */
  env: NodeJS.ProcessEnv;
  es: EsClient;
  run: RunConfig;
  input: SweepInput;
  configDir: string;
  /** Claims per dataset in the pilot. */
  pilotClaims: number;
  /** Run a pilot even for (method, model) pairs that earlier runs have figures for. */
  forcePilot?: boolean;
  logger: Logger;
  /** Progress lines (the pilot takes a while). */
  onProgress?: (line: string) => void;
  /** Aborting it interrupts a running pilot (PlanInterruptedError), leaving nothing of it behind. */
  signal?: AbortSignal;
  /** Assumed batch turnaround for the batch wall time (default: the 24-hour completion window). */
  batchTurnaroundMs?: number;
}

/**
 * What a sweep will use before any paid call: per (dataset × method × model), the run's claims
 * times the per-claim usage of earlier runs with the same method and model when there are any,
 * else of a pilot on the simulator; priced per model (built-in table or VERITY_PRICES_FILE). For a
 * real endpoint, runs that the embedded simulator answered (their manifest says so) are left out.
 */
export async function planSweep(options: PlanOptions): Promise<Plan> {
  const { config, es, run, input } = options;
  // The local model costs 0 whatever its name; a server on this machine only has the prices file's prices.
  const prices = config.llm.provider === 'local' ? LOCAL_PRICES : loadPriceTable(config.llm.pricesFile, { builtIn: !(config.llm.baseUrl && isLoopbackUrl(config.llm.baseUrl)) });
  // Claims per dataset of the config, by position (a dataset file may hold claims of several benchmarks).
  const claims = new Map<number, number>(input.datasets.map((_, position) => [position, 0]));
  for (const claim of await sampleRunClaims(run.run, input.datasets, input.seed)) claims.set(claim.datasetPosition, (claims.get(claim.datasetPosition) ?? 0) + 1);
  const pairs = input.variants.map(({ method, model }) => ({ method, model }));
  // A real endpoint is not planned from what the embedded simulator answered.
  const excludeRunIds = config.llm.provider === 'simulator' ? [] : await simulatorRunIds(es, indexName(config.elasticsearch.indexPrefix, 'runs'));
  const earlier = options.forcePilot ? new Map() : await earlierRunStats(es, indexName(config.elasticsearch.indexPrefix, 'verdicts'), pairs, { excludeRunIds });
  if (options.signal?.aborted) throw new PlanInterruptedError('interrupted: no plan');
  const missing = pairs.filter(({ method, model }) => !earlier.has(pairKey(method, model)));

  let pilot: Awaited<ReturnType<typeof runPilot>> | undefined;
  if (missing.length > 0) {
    const methods = [...new Set(missing.map((pair) => pair.method))];
    const models = [...new Set(missing.map((pair) => pair.model))];
    options.onProgress?.(`pilot: ${options.pilotClaims} claim(s) per dataset × ${methods.join(', ')} × ${models.join(', ')} on the embedded simulator (no paid call)`);
    pilot = await runPilot({
      env: options.env,
      es,
      prefix: config.elasticsearch.indexPrefix,
      run: { ...run, methods, models },
      configDir: options.configDir,
      claimsPerDataset: options.pilotClaims,
      logger: options.logger,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  const rows: PlanRow[] = [];
  for (const [position, count] of claims) {
    for (const { method, model } of pairs) {
      // With `repeats`, each claim is verified (and paid for) once per repeat.
      const base = { dataset: input.datasets[position]!.name, method, model, claims: count * (run.repeats ?? 1) };
      const stored = earlier.get(pairKey(method, model));
      if (stored) {
        rows.push(planRow(base, stored, { kind: 'earlier-runs', verdicts: stored.verdicts }, prices));
        continue;
      }
      const samples = pilot?.samples.get(rowKey(position, method, model)) ?? [];
      const failed = pilot?.failed.get(rowKey(position, method, model));
      if (samples.length === 0) {
        rows.push({ ...base, source: { kind: 'none', reason: failed ? `the pilot's ${failed.count} verification(s) failed: ${failed.reason.split('\n')[0]}` : 'the pilot verified no claim' } });
        continue;
      }
      rows.push(planRow(base, usageStatsOf(samples), { kind: 'pilot', claims: samples.length, failed: failed?.count ?? 0 }, prices));
    }
  }
  const plan = summarisePlan(run.run, rows);
  const batchWallMs = batchWallTime(rows, { concurrency: input.ordered ? 1 : input.concurrency, turnaroundMs: options.batchTurnaroundMs ?? DEFAULT_BATCH_TURNAROUND_MS });
  return { ...plan, ...(batchWallMs ? { batchWallMs } : {}) };
}
