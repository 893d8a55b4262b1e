import type { Client } from '@elastic/elasticsearch';
import { ensureIndex } from '../es/ensure-index';
import { indexReplicas } from '../es/index-replicas';
import { addChecksums, EMPTY_CHECKSUM } from '../shared/passage-checksum';
import { checksumOfPassages } from './passage-digest';
import { GENERATED_SOURCE_LABEL, generatedRange, type GeneratedCorpusSpec, type SourcePassages } from './generated-passages';
import { passageId, toWikiPassageDoc, WIKI_INDEX_DEFINITION } from './wiki-index';

/** One batch as it was written: how many passages and their checksum. */
export interface BatchOutcome {
  passages: number;
  checksum: string;
}

export class BulkRejectedError extends Error {}

/** The passages [start, end) of batch `batch` (the last batch may be short). */
export function batchRange(batch: number, batchSize: number, total: number): { start: number; end: number } {
  const start = batch * batchSize;
  return { start, end: Math.min(total, start + batchSize) };
}

export function batchCount(total: number, batchSize: number): number {
  return Math.ceil(total / batchSize);
}

/**
 * Creates the wiki index for a bulk load (`shards` primaries) the way Elasticsearch advises for one:
 * no refresh and no replica while it loads (each passage is analysed once, not once per copy).
 * finishBulkIndex restores both; until then a lost node loses batches the workflow counts as done,
 * so a load interrupted by a node loss is rerun (idempotent), not trusted.
 */
export async function prepareBulkIndex(client: Client, index: string, shards: number): Promise<void> {
  await ensureIndex(client, index, { ...WIKI_INDEX_DEFINITION, settings: { ...WIKI_INDEX_DEFINITION.settings, number_of_shards: shards, refresh_interval: '-1' } });
  await client.indices.putSettings({ index, settings: { refresh_interval: '-1', number_of_replicas: 0 } });
}

/** Searchable again, with its replicas (VERITY_ES_REPLICAS), once they are allocated. */
export async function finishBulkIndex(client: Client, index: string): Promise<void> {
  await client.indices.putSettings({ index, settings: { refresh_interval: WIKI_INDEX_DEFINITION.settings?.refresh_interval ?? '1s', number_of_replicas: indexReplicas() } });
  await client.indices.refresh({ index });
  await client.cluster.health({ index, wait_for_status: indexReplicas() > 0 ? 'green' : 'yellow', timeout: '10m' });
}

/**
 * Writes passages [start, end) of the generated corpus under their deterministic ids: writing a
 * batch again overwrites the same documents, so a retried or repeated batch never duplicates.
 * Any rejected item fails the whole batch (it is retried as a unit).
 */
export async function indexGeneratedBatch(client: Client, index: string, source: SourcePassages, spec: GeneratedCorpusSpec, start: number, end: number): Promise<BatchOutcome> {
  const docs = generatedRange(source, spec.seed, start, end).map((passage) => ({ id: passageId(passage.docId, passage.passage), doc: toWikiPassageDoc(passage, GENERATED_SOURCE_LABEL) }));
  if (docs.length === 0) return { passages: 0, checksum: checksumOfPassages([]) };
  const response = await client.bulk({ operations: docs.flatMap(({ id, doc }) => [{ index: { _index: index, _id: id } }, doc]) });
  if (response.errors) {
    const failed = response.items.filter((item) => item.index?.error);
    const first = failed[0]?.index;
    throw new BulkRejectedError(`${failed.length} of ${docs.length} passages rejected (first ${first?._id ?? '?'}: ${first?.error?.type ?? ''} ${first?.error?.reason ?? ''})`);
  }
  return { passages: docs.length, checksum: checksumOfPassages(docs.map(({ id, doc }) => ({ id, content: doc.content }))) };
}

/** What the generated corpus's checksum must be, computed from the generator alone. */
export function expectedGeneratedChecksum(source: SourcePassages, spec: GeneratedCorpusSpec, chunk = 10_000): BatchOutcome {
  let checksum = EMPTY_CHECKSUM;
  for (let start = 0; start < spec.total; start += chunk) {
    const passages = generatedRange(source, spec.seed, start, Math.min(spec.total, start + chunk));
    const part = checksumOfPassages(passages.map((passage) => ({ id: passageId(passage.docId, passage.passage), content: toWikiPassageDoc(passage, GENERATED_SOURCE_LABEL).content })));
    checksum = addChecksums(checksum, part);
  }
  return { passages: spec.total, checksum };
}
