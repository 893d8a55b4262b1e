import type { Client } from '@elastic/elasticsearch';
import type { VerityConfig } from '../config/config';
import { endpointIdentity } from '../config/config-identity';
import type { Logger } from '../logging/logger';
import { LlmCache } from './cache';
import { embeddingEndpointOf } from './embedding-endpoint';
import type { ResolvedLlmEndpoint } from './endpoint';
import { LlmGateway } from './gateway';
import { LOCAL_PRICES, type PriceTable, isLoopbackUrl, loadPriceTable } from './prices';
import type { RequestGate } from './request-pacer';

export interface GatewayDeps {
  config: VerityConfig;
  endpoint: ResolvedLlmEndpoint;
  /** Without a client (or with VERITY_LLM_CACHE=off) there is no request cache. */
  es?: Client;
  logger?: Logger;
  /** Paces chat requests (the worker's; CLI commands that call the model directly have none). */
  pacer?: RequestGate;
}

/** The gateway as the worker uses it: configured models, prices (none for the simulator) and cache. */
export function createLlmGateway({ config, endpoint, es, logger, pacer }: GatewayDeps): LlmGateway {
  const { llm, embedding } = config;
  const embeddingEndpoint = embeddingEndpointOf(config, endpoint);
  const cache = es && llm.cacheMode !== 'off' ? new LlmCache(es, config.elasticsearch.indexPrefix, llm.cacheMode) : undefined;
  return new LlmGateway({
    endpoint: { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey },
    endpointIdentity: endpointIdentity(llm),
    models: llm.models,
    temperature: llm.temperature,
    seed: llm.seed,
    timeoutMs: llm.timeoutMs,
    ...(llm.contextTokens !== undefined ? { contextTokens: llm.contextTokens } : {}),
    ...(llm.reasoningMultipliers ? { reasoningMultipliers: llm.reasoningMultipliers } : {}),
    prices: priceTableFor(config, endpoint),
    cache,
    logger,
    embeddingModel: embedding.model,
    embeddingQueryModel: embedding.queryModel,
    embeddingDimensions: embedding.dimensions,
    embeddingEndpoint: { baseUrl: embeddingEndpoint.baseUrl, apiKey: embeddingEndpoint.apiKey },
    ...(pacer ? { pacer } : {}),
  });
}

/**
 * The simulator prices nothing; the local model costs 0 (priced, whatever its served name); a
 * server on this machine is priced only by VERITY_PRICES_FILE; any other endpoint by the built-in
 * list prices with the file layered on top.
 */
export function priceTableFor(config: VerityConfig, endpoint: Pick<ResolvedLlmEndpoint, 'baseUrl' | 'simulated' | 'local'>): PriceTable {
  if (endpoint.simulated) return {};
  if (endpoint.local) return { ...LOCAL_PRICES };
  return loadPriceTable(config.llm.pricesFile, { builtIn: !isLoopbackUrl(endpoint.baseUrl) });
}
