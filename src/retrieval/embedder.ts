import { WIKI_EMBEDDING_DIMS } from '../corpus/wiki-index';
import type { LlmGateway } from '../llm/gateway';
import type { EmbedTexts } from './dense';

export const SIMULATED_EMBEDDINGS_NOTICE =
  'embeddings come from the simulator (hashed bag-of-words vectors, a lexical signal), not from a real embedding model';

/** Embeds passages and queries alike, at the dimensions of the passage indices' dense_vector. */
export function passageEmbedder(gateway: Pick<LlmGateway, 'embed'>): EmbedTexts {
  return (texts) => gateway.embed(texts, { dimensions: WIKI_EMBEDDING_DIMS });
}
