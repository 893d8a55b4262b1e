import type { VerityConfig } from '../src/config/config';
import { type EsEnsureResult, type EsStatus, elasticsearchPidFile, elasticsearchStatus, ensureElasticsearch } from './elasticsearch';
import { type InfraLog, type StopOutcome, elapsedMs, silentLog, stopPidFile } from './support';
import { type TemporalEnsureResult, type TemporalStatus, ensureTemporal, temporalPaths, temporalStatus } from './temporal';

export { ES_VERSION } from './elasticsearch';
export { TEMPORAL_CLI_VERSION } from './temporal';
export type { EsEnsureResult, EsStatus, InfraLog, StopOutcome, TemporalEnsureResult, TemporalStatus };

export interface InfraState {
  temporal: TemporalEnsureResult;
  elasticsearch: EsEnsureResult;
  durationMs: number;
}

export interface InfraStatus {
  temporal: TemporalStatus;
  elasticsearch: EsStatus;
  /** Both services answer. */
  ready: boolean;
}

export interface InfraStopResult {
  temporal: StopOutcome;
  elasticsearch: StopOutcome;
}

/**
 * Makes sure Temporal and Elasticsearch answer at the configured addresses, starting local
 * servers where nothing answers. Both are provisioned concurrently; if either fails the error
 * names every failure (a service that did start keeps running; `stopInfra` stops it).
 */
export async function ensureInfra(config: VerityConfig, options: { log?: InfraLog } = {}): Promise<InfraState> {
  const log = options.log ?? silentLog;
  const startedAt = Date.now();
  const [temporal, elasticsearch] = await Promise.allSettled([ensureTemporal(config, log), ensureElasticsearch(config, log)]);
  if (temporal.status === 'fulfilled' && elasticsearch.status === 'fulfilled') {
    return { temporal: temporal.value, elasticsearch: elasticsearch.value, durationMs: elapsedMs(startedAt) };
  }
  const problems = [
    temporal.status === 'rejected' ? `Temporal: ${(temporal.reason as Error).message}` : undefined,
    elasticsearch.status === 'rejected' ? `Elasticsearch: ${(elasticsearch.reason as Error).message}` : undefined,
  ].filter(Boolean);
  throw new Error(problems.join('\n'));
}

/** Stops only the servers verity started (found through their pid files). */
export async function stopInfra(config: VerityConfig): Promise<InfraStopResult> {
  const [temporal, elasticsearch] = await Promise.all([
    stopPidFile(temporalPaths(config.dataDir).pidFile, 'temporal'),
    stopPidFile(elasticsearchPidFile(config), 'elasticsearch', 60_000),
  ]);
  return { temporal, elasticsearch };
}

export async function infraStatus(config: VerityConfig): Promise<InfraStatus> {
  const [temporal, elasticsearch] = await Promise.all([temporalStatus(config), elasticsearchStatus(config)]);
  return { temporal, elasticsearch, ready: temporal.reachable && elasticsearch.reachable };
}
