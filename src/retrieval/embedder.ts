import type { EmbedInput, LlmGateway } from '../llm/gateway';
import type { EmbedTexts } from './dense';

export const SIMULATED_EMBEDDINGS_NOTICE =
  'embeddings come from the simulator (hashed bag-of-words vectors, a lexical signal), not from a real embedding model';

type Embedding = Pick<LlmGateway, 'embed'>;

function embedderFor(gateway: Embedding, input: EmbedInput): EmbedTexts {
  return (texts) => gateway.embed(texts, { input });
}

/** Embeds passages at ingest; the index's dense_vector takes the length of the first vector stored. */
export function passageEmbedder(gateway: Embedding): EmbedTexts {
  return embedderFor(gateway, 'passage');
}

/** Embeds search queries for dense/hybrid retrieval, with the query model of asymmetric models (e5, bge). */
export function queryEmbedder(gateway: Embedding): EmbedTexts {
  return embedderFor(gateway, 'query');
}
