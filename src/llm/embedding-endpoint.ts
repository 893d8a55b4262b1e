import type { VerityConfig } from '../config/config';
import type { ResolvedLlmEndpoint } from './endpoint';
import type { LlmEndpoint } from './gateway';

export interface EmbeddingEndpoint extends LlmEndpoint {
  /** True when the vectors come from the simulator (hashed bag-of-words, no semantics). */
  simulated: boolean;
}

/** VERITY_EMBEDDING_BASE_URL when set (users often embed on another server than they chat with), else the LLM endpoint. */
export function embeddingEndpointOf(config: VerityConfig, llm: ResolvedLlmEndpoint): EmbeddingEndpoint {
  const { baseUrl, apiKey } = config.embedding;
  // Local embedding servers accept any key; the SDK insists on one.
  if (baseUrl) return { baseUrl, apiKey: apiKey ?? 'none', simulated: false };
  return { baseUrl: llm.baseUrl, apiKey: llm.apiKey, simulated: llm.simulated };
}

/** Names the embeddings for reports and index keys: `<model>[/<query model>] at <url>`, or the simulator. */
export function describeEmbeddings(config: VerityConfig, endpoint: EmbeddingEndpoint): string {
  if (endpoint.simulated) return 'simulator embeddings (hashed bag-of-words)';
  const { model, queryModel, dimensions } = config.embedding;
  const models = queryModel === model ? model : `${model} (queries: ${queryModel})`;
  return `${models}${dimensions ? ` @${dimensions}d` : ''} at ${endpoint.baseUrl}`;
}
