import type { Client } from '@elastic/elasticsearch';
import { ingestCorpus, type IngestOptions, type IngestProgress } from '../../src/corpus/ingest';
import { canonicalJson, sha256Hex } from '../../src/llm/canonical-json';
import { datasetFileHash } from '../../src/datasets/file-hash';

export interface BenchIndexSpec {
  /** Logical name, e.g. `wiki`; the index is `<prefix>-bench-<name>-<hash>`. */
  name: string;
  file: string;
  passageChars: number;
  /** Identifies the embeddings (model + endpoint kind); part of the content hash. */
  embeddingId: string;
}

/** Hash of everything that determines the index content: file bytes, passage size, embeddings. */
export async function contentHash(spec: BenchIndexSpec): Promise<string> {
  const fileHash = await datasetFileHash(spec.file);
  return sha256Hex(canonicalJson({ fileHash, passageChars: spec.passageChars, embeddingId: spec.embeddingId, version: 1 })).slice(0, 12);
}

async function completedHash(es: Client, index: string): Promise<string | undefined> {
  if (!(await es.indices.exists({ index }))) return undefined;
  const mapping = await es.indices.getMapping({ index });
  return (mapping[index]?.mappings._meta as { contentHash?: string } | undefined)?.contentHash;
}

/**
 * A throwaway index holding the corpus with embeddings, reused when an earlier run completed
 * it with the same content hash (the hash is written to the mapping's _meta last).
 */
export async function ensureBenchIndex(
  es: Client,
  prefix: string,
  spec: BenchIndexSpec,
  embed: NonNullable<IngestOptions['embed']>,
  onProgress?: (progress: IngestProgress) => void,
): Promise<{ index: string; reused: boolean }> {
  const hash = await contentHash(spec);
  const index = `${prefix}-bench-${spec.name}-${hash}`;
  if ((await completedHash(es, index)) === hash) return { index, reused: true };
  await es.indices.delete({ index }, { ignore: [404] });
  const result = await ingestCorpus({ client: es, index, file: spec.file, passageChars: spec.passageChars, embed, onProgress });
  if (result.failedCount > 0) throw new Error(`${result.failedCount} passages of ${spec.file} were rejected by Elasticsearch`);
  await es.indices.putMapping({ index, _meta: { contentHash: hash, file: spec.file } });
  return { index, reused: false };
}
