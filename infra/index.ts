import type { VerityConfig } from '../src/config/config';
import { type EsEnsureResult, type EsStatus, elasticsearchPidFile, elasticsearchStatus, ensureElasticsearch } from './elasticsearch';
import { type LocalLlmEnsureResult, type LocalLlmStatus, ensureLocalLlm, localLlmOptionsOf, localLlmStatus, stopLocalLlm } from './local-llm';
import { type InfraLog, type StopOutcome, elapsedMs, silentLog, stopPidFile } from './support';
import { type TemporalEnsureResult, type TemporalStatus, ensureTemporal, temporalPaths, temporalStatus } from './temporal';

export { ES_VERSION } from './elasticsearch';
export { TEMPORAL_CLI_VERSION } from './temporal';
export type { EsEnsureResult, EsStatus, InfraLog, LocalLlmEnsureResult, LocalLlmStatus, StopOutcome, TemporalEnsureResult, TemporalStatus };

export interface InfraState {
  temporal: TemporalEnsureResult;
  elasticsearch: EsEnsureResult;
  /** The local model server, when VERITY_LLM=local. */
  localLlm?: LocalLlmEnsureResult;
  durationMs: number;
}

export interface InfraStatus {
  temporal: TemporalStatus;
  elasticsearch: EsStatus;
  localLlm: LocalLlmStatus;
  /** Both services answer (and the local model server, when VERITY_LLM=local). */
  ready: boolean;
}

/** The parts `stopInfra` can stop. */
export const INFRA_PARTS = ['temporal', 'elasticsearch', 'llm'] as const;
export type InfraPart = (typeof INFRA_PARTS)[number];

export type InfraStopResult = Partial<Record<InfraPart, StopOutcome>>;

/**
 * Makes sure Temporal and Elasticsearch answer at the configured addresses, starting local
 * servers where nothing answers. Both are provisioned concurrently; if either fails the error
 * names every failure (a service that did start keeps running; `stopInfra` stops it).
 */
export async function ensureInfra(config: VerityConfig, options: { log?: InfraLog } = {}): Promise<InfraState> {
  const log = options.log ?? silentLog;
  const startedAt = Date.now();
  const [temporal, elasticsearch, localLlm] = await Promise.allSettled([
    ensureTemporal(config, log),
    ensureElasticsearch(config, log),
    config.llm.local ? ensureLocalLlm(config.dataDir, localLlmOptionsOf(config), log) : Promise.resolve(undefined),
  ]);
  if (temporal.status === 'fulfilled' && elasticsearch.status === 'fulfilled' && localLlm.status === 'fulfilled') {
    return {
      temporal: temporal.value,
      elasticsearch: elasticsearch.value,
      ...(localLlm.value ? { localLlm: localLlm.value } : {}),
      durationMs: elapsedMs(startedAt),
    };
  }
  const problems = [
    temporal.status === 'rejected' ? `Temporal: ${(temporal.reason as Error).message}` : undefined,
    elasticsearch.status === 'rejected' ? `Elasticsearch: ${(elasticsearch.reason as Error).message}` : undefined,
    localLlm.status === 'rejected' ? `local LLM: ${(localLlm.reason as Error).message}` : undefined,
  ].filter(Boolean);
  throw new Error(problems.join('\n'));
}

/** Stops only the servers verity started (found through their pid files): all of them, or only `parts`. */
export async function stopInfra(config: VerityConfig, parts: readonly InfraPart[] = INFRA_PARTS): Promise<InfraStopResult> {
  const stops: Record<InfraPart, () => Promise<StopOutcome>> = {
    temporal: () => stopPidFile(temporalPaths(config.dataDir).pidFile, 'temporal'),
    elasticsearch: () => stopPidFile(elasticsearchPidFile(config), 'elasticsearch', 60_000),
    llm: () => stopLocalLlm(config.dataDir),
  };
  const chosen = INFRA_PARTS.filter((part) => parts.includes(part));
  const outcomes = await Promise.all(chosen.map((part) => stops[part]()));
  return Object.fromEntries(chosen.map((part, i) => [part, outcomes[i]]));
}

export async function infraStatus(config: VerityConfig): Promise<InfraStatus> {
  const [temporal, elasticsearch, localLlm] = await Promise.all([temporalStatus(config), elasticsearchStatus(config), localLlmStatus(config)]);
  const llmReady = !config.llm.local || localLlm.server !== undefined;
  return { temporal, elasticsearch, localLlm, ready: temporal.reachable && elasticsearch.reachable && llmReady };
}
