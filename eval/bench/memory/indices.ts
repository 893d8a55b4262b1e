import type { Client } from '@elastic/elasticsearch';
import type { PassageTarget } from '../../../src/corpus/ingest';
import { canonicalJson, sha256Hex } from '../../../src/llm/canonical-json';
import { datasetFileHash } from '../../../src/datasets/file-hash';
import { ingestIndex } from '../support/bench-stack';

/**
 * Ingests `file` into `index` unless an earlier run completed it from the same bytes (the hash is
 * written to the mapping's _meta last, so an interrupted ingest is redone).
 */
export async function ensureCorpusIndex(es: Client, index: string, file: string, target?: PassageTarget): Promise<{ reused: boolean; passages?: number }> {
  const hash = sha256Hex(canonicalJson({ file: await datasetFileHash(file), target: target ? 'web' : 'wiki', version: 1 })).slice(0, 12);
  if (await es.indices.exists({ index })) {
    const mapping = await es.indices.getMapping({ index });
    if ((mapping[index]?.mappings._meta as { contentHash?: string } | undefined)?.contentHash === hash) return { reused: true };
    await es.indices.delete({ index }, { ignore: [404] });
  }
  const result = await ingestIndex(es, index, file, target);
  await es.indices.putMapping({ index, _meta: { contentHash: hash, file } });
  return { reused: false, passages: result.passages };
}
