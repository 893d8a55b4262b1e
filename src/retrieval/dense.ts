import type { Client } from '@elastic/elasticsearch';
import { ConfigError } from '../config/config';
import { isIndexNotFound } from '../es/client';
import { IndexNotFoundError, MissingEmbeddingsError } from './errors';
import { PASSAGE_SOURCE_FIELDS, toPassage, validateQuery, type Passage, type StoredPassage } from './passage';

/** Embeds texts exactly as the passages were embedded at ingest (e.g. `gateway.embed`). */
export type EmbedTexts = (texts: readonly string[]) => Promise<number[][]>;

/** HNSW candidates per shard: ten times k (at least 100) keeps approximate kNN close to exact. */
export function numCandidates(k: number): number {
  return Math.min(Math.max(10 * k, 100), 10_000);
}

const indicesWithEmbeddings = new WeakMap<Client, Set<string>>();

/** True when some passage of `index` has an embedding (remembered once true: embeddings are never removed). */
export async function hasPassageEmbeddings(client: Client, index: string): Promise<boolean> {
  const known = indicesWithEmbeddings.get(client) ?? new Set<string>();
  indicesWithEmbeddings.set(client, known);
  if (known.has(index)) return true;
  try {
    const { count } = await client.count({ index, query: { exists: { field: 'embedding' } } });
    if (count > 0) known.add(index);
    return count > 0;
  } catch (err) {
    if (isIndexNotFound(err)) throw new IndexNotFoundError(index);
    throw err;
  }
}

/**
 * kNN over the passages' `embedding` field (cosine). An index ingested without `--embed` fails
 * with MissingEmbeddingsError instead of answering with no passages.
 */
export async function densePassages(client: Client, index: string, query: string, k: number, embed: EmbedTexts): Promise<Passage[]> {
  validateQuery(query, k);
  if (!(await hasPassageEmbeddings(client, index))) throw new MissingEmbeddingsError(index);
  const [vector] = await embed([query]);
  if (!vector) throw new Error('the embedder returned no vector for the query');
  try {
    const response = await client.search<StoredPassage>({
      index,
      size: k,
      knn: { field: 'embedding', query_vector: vector, k, num_candidates: numCandidates(k) },
      _source: PASSAGE_SOURCE_FIELDS,
    });
    return response.hits.hits.map(toPassage);
  } catch (err) {
    if (isIndexNotFound(err)) throw new IndexNotFoundError(index);
    if (isDimensionMismatch(err)) {
      throw new ConfigError(`the query embedding has ${vector.length} dimensions but index "${index}" was embedded with another model; re-ingest it with --embed or configure the model it was built with`);
    }
    throw err;
  }
}

function isDimensionMismatch(err: unknown): boolean {
  return err instanceof Error && /different number of dimensions/i.test(err.message);
}
