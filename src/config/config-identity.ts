import type { ConfigStamp, RunPlacement } from '../shared/identity';
import { identityHash } from '../shared/identity';
import type { VerityConfig } from './config';
import { LOCAL_LLM_ENGINE, LOCAL_MODELS, localEndpointIdentity } from './local-llm';
import { redactUrl } from './redact-url';
import { sentTemperature } from '../llm/sent-temperature';

/** The endpoint the SDK talks to when only OPENAI_API_KEY is set. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

type IdentitySource = Pick<VerityConfig, 'llm' | 'embedding' | 'elasticsearch' | 'rag' | 'memory' | 'web' | 'wikipedia'>;

/** A URL without credentials (user info, secret query parameters) or a trailing slash: identities and labels never carry secrets. */
export function publicUrl(url: string): string {
  return redactUrl(url).replace(/\/$/, '');
}

/** Part of the LLM cache key and of every verification's identity; never a secret, never a local port. */
export type EndpointIdentity = { provider: string; baseUrl?: string } & Record<string, string | undefined>;

/**
 * The LLM endpoint's identity: the simulator is one identity wherever it listens; the local model
 * is its engine, model file hash and quantisation wherever it listens (a new port keeps its cache);
 * any other endpoint is its provider and base URL.
 */
export function endpointIdentity(llm: Pick<VerityConfig['llm'], 'provider' | 'baseUrl' | 'local'>): EndpointIdentity {
  if (llm.provider === 'simulator') return { provider: 'simulator' };
  if (llm.provider === 'local') {
    if (!llm.local) throw new Error('provider local without a local model');
    return localEndpointIdentity(LOCAL_MODELS[llm.local.model]);
  }
  return { provider: llm.provider, baseUrl: publicUrl(llm.baseUrl ?? OPENAI_DEFAULT_BASE_URL) };
}

/**
 * Everything in the configuration that decides an answer or where it is stored, without secrets.
 * Its hash is part of every verification's identity and names the process's task queues.
 */
export function configIdentity(config: IdentitySource): Record<string, unknown> {
  const { llm, embedding, web, wikipedia } = config;
  return {
    endpoint: endpointIdentity(llm),
    models: llm.models,
    temperature: llm.temperature,
    seed: llm.seed,
    embedding: {
      baseUrl: embedding.baseUrl ? publicUrl(embedding.baseUrl) : undefined,
      model: embedding.model,
      queryModel: embedding.queryModel,
      dimensions: embedding.dimensions,
    },
    elasticsearch: { url: publicUrl(config.elasticsearch.url), indexPrefix: config.elasticsearch.indexPrefix },
    ragMode: config.rag.mode,
    memory: config.memory,
    web: {
      provider: web.provider,
      searxngUrl: web.searxngUrl ? publicUrl(web.searxngUrl) : undefined,
      includeDomains: web.includeDomains,
      excludeDomains: web.excludeDomains,
      pageReader: web.pageReader,
    },
    wikipedia: { provider: wikipedia.provider, mediawikiUrl: wikipedia.provider === 'mediawiki' ? wikipedia.mediawikiUrl : undefined },
  };
}

export function configHash(config: IdentitySource): string {
  return identityHash(configIdentity(config));
}

/** The fingerprint of a configuration and a one-line, secret-free description of it. */
export function configStamp(config: IdentitySource): ConfigStamp {
  const endpoint = endpointIdentity(config.llm);
  const label = [
    `Elasticsearch ${publicUrl(config.elasticsearch.url)} prefix "${config.elasticsearch.indexPrefix}"`,
    `LLM ${endpoint.baseUrl ?? (config.llm.local ? localLabel(config.llm.local.model) : 'simulator')}`,
    `model ${config.llm.models.default}, temperature ${sentTemperature(config.llm.models.default, config.llm.temperature)}, seed ${config.llm.seed}`,
  ].join(', ');
  return { fingerprint: configHash(config).slice(0, 16), label };
}

function localLabel(model: keyof typeof LOCAL_MODELS): string {
  const spec = LOCAL_MODELS[model];
  return `local ${spec.description} ${spec.quantisation} (${LOCAL_LLM_ENGINE.name}, ${LOCAL_LLM_ENGINE.package} ${LOCAL_LLM_ENGINE.version}, sha256 ${spec.sha256.slice(0, 12)})`;
}

/** Task queues derive from the configuration: a process's worker only ever receives work made under its own. */
export function derivedTaskQueue(baseQueue: string, config: IdentitySource): string {
  return `${baseQueue}-${configHash(config).slice(0, 8)}`;
}

/** Where a run's records live (its sweep id names it): the Elasticsearch URL, without credentials, and the index prefix. */
export function runPlacementOf(config: Pick<VerityConfig, 'elasticsearch'>): RunPlacement {
  return { esUrl: publicUrl(config.elasticsearch.url), indexPrefix: config.elasticsearch.indexPrefix };
}
