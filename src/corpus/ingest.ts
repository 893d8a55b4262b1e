import fs from 'node:fs/promises';
import type { Client } from '@elastic/elasticsearch';
import type { CorpusDocument, CorpusFormat } from './document';
import { type CorpusPassage, DEFAULT_PASSAGE_CHARS, splitIntoPassages } from './passages';
import { emptyReadStats, readCorpus, type CorpusReadStats, type MalformedLine, type OmittedDocuments } from './reader';
import { ensureWikiIndex, passageId, toWikiPassageDoc, type WikiPassageDoc } from './wiki-index';

export interface IngestProgress {
  bytesRead: number;
  totalBytes: number;
  documents: number;
  passages: number;
  /** Passages embedded so far (0 without an embedder). */
  embedded: number;
  /** Lines that are not a document, so far. */
  malformed: number;
  /** Passages Elasticsearch rejected, so far. */
  rejected: number;
}

/** Where passages go: the index mapping and the stored document (the wiki index by default). */
export interface PassageTarget {
  ensureIndex(client: Client, index: string): Promise<void>;
  toDoc(passage: CorpusPassage, document: CorpusDocument): WikiPassageDoc;
}

export const WIKI_TARGET: PassageTarget = {
  ensureIndex: ensureWikiIndex,
  toDoc: (passage, document) => toWikiPassageDoc(passage, document.source),
};

/** Embeds passage texts into the `embedding` field (e.g. the gateway's embed with the index's dims). */
export type PassageEmbedder = (texts: readonly string[]) => Promise<number[][]>;

export const DEFAULT_EMBED_BATCH = 256;

export interface IngestOptions {
  client: Client;
  index: string;
  file: string;
  format?: CorpusFormat;
  strict?: boolean;
  passageChars?: number;
  onProgress?: (progress: IngestProgress) => void;
  target?: PassageTarget;
  /** When given, every passage's title-prefixed `content` is embedded at ingest. */
  embed?: PassageEmbedder;
  /** Passages per embed call (default DEFAULT_EMBED_BATCH). */
  embedBatch?: number;
}

export interface BulkFailure {
  id: string;
  status: number;
  reason: string;
}

export interface IngestResult {
  index: string;
  file: string;
  documents: number;
  passages: number;
  embedded: number;
  skipped: number;
  malformedCount: number;
  /** The first malformed lines (see MAX_REPORTED_MALFORMED). */
  malformed: MalformedLine[];
  /** Documents skipped because an earlier line had their id. */
  duplicates: OmittedDocuments;
  /** Documents without text (no passage). */
  empty: OmittedDocuments;
  /** Passages Elasticsearch rejected. */
  failedCount: number;
  failures: BulkFailure[];
  tookMs: number;
}

const MAX_REPORTED_FAILURES = 20;

interface IndexedPassage {
  id: string;
  doc: WikiPassageDoc;
}

/** Documents whose stale passages are deleted in one request. */
const STALE_BATCH = 500;
/** Stale passages deleted per bulk request. */
const STALE_PAGE = 1000;

/**
 * Deletes the passages a document had beyond its new ones (numbered from `passages` on), so that a
 * re-ingested document is replaced as a unit: its new passages overwrite the old ones by id first.
 */
async function deleteStalePassages(client: Client, index: string, documents: readonly { docId: string; passages: number }[]): Promise<void> {
  if (documents.length === 0) return;
  const query = {
    bool: {
      should: documents.map(({ docId, passages }) => ({ bool: { filter: [{ term: { doc_id: docId } }, { range: { passage: { gte: passages } } }] } })),
      minimum_should_match: 1,
    },
  };
  // No delete_by_query: the reindex module it lives in is not in every distribution.
  for (;;) {
    const stale = await client.search({ index, query, size: STALE_PAGE, _source: false });
    const ids = stale.hits.hits.map((hit) => hit._id).filter((id): id is string => id !== undefined);
    if (ids.length === 0) return;
    const response = await client.bulk({ refresh: true, operations: ids.map((id) => ({ delete: { _index: index, _id: id } })) });
    const failed = response.items.find((item) => item.delete?.error);
    if (failed?.delete?.error) throw new Error(`could not delete the old passage ${failed.delete._id ?? '?'} of a re-ingested document: ${failed.delete.error.reason ?? failed.delete.error.type}`);
    if (ids.length < STALE_PAGE) return;
  }
}

/** Reads the corpus and yields its passages; a read error ends the stream and is handed back. */
async function* passagesOf(
  options: IngestOptions,
  stats: CorpusReadStats,
  progress: IngestProgress,
  onReadError: (err: unknown) => void,
  /** The index held passages before: a document ingested again may have had more of them. */
  replacing: boolean,
): AsyncGenerator<IndexedPassage> {
  const target = options.target ?? WIKI_TARGET;
  const batchSize = options.embed ? (options.embedBatch ?? DEFAULT_EMBED_BATCH) : 1;
  let pending: IndexedPassage[] = [];
  const flush = async (): Promise<IndexedPassage[]> => {
    const batch = pending;
    pending = [];
    if (options.embed && batch.length > 0) await embedInto(batch, options.embed, progress);
    return batch;
  };
  let replaced: { docId: string; passages: number }[] = [];
  try {
    for await (const document of readCorpus(options.file, options, stats)) {
      let passages = 0;
      for (const passage of splitIntoPassages(document, options.passageChars ?? DEFAULT_PASSAGE_CHARS)) {
        progress.passages += 1;
        passages += 1;
        pending.push({ id: passageId(passage.docId, passage.passage), doc: target.toDoc(passage, document) });
      }
      if (replacing && passages > 0) replaced.push({ docId: document.id, passages });
      if (replaced.length >= STALE_BATCH) {
        await deleteStalePassages(options.client, options.index, replaced);
        replaced = [];
      }
      if (pending.length >= batchSize) yield* await flush();
      progress.documents = stats.documents;
      progress.bytesRead = stats.bytesRead;
      progress.malformed = stats.malformedCount;
      options.onProgress?.({ ...progress });
    }
    yield* await flush();
    await deleteStalePassages(options.client, options.index, replaced);
    options.onProgress?.({ ...progress });
  } catch (err) {
    // Throwing inside the bulk helper's datasource would leave its flush timer running.
    onReadError(err);
  }
}

async function embedInto(batch: IndexedPassage[], embed: PassageEmbedder, progress: IngestProgress): Promise<void> {
  const vectors = await embed(batch.map((passage) => passage.doc.content));
  batch.forEach((passage, i) => (passage.doc.embedding = vectors[i]));
  progress.embedded += batch.length;
}

/** Streams a JSONL corpus into the wiki index as passages (idempotent by passage id). */
export async function ingestCorpus(options: IngestOptions): Promise<IngestResult> {
  const started = Date.now();
  const { size: totalBytes } = await fs.stat(options.file);
  await (options.target ?? WIKI_TARGET).ensureIndex(options.client, options.index);
  const replacing = (await options.client.count({ index: options.index })).count > 0;

  const stats = emptyReadStats();
  const progress: IngestProgress = { bytesRead: 0, totalBytes, documents: 0, passages: 0, embedded: 0, malformed: 0, rejected: 0 };
  const failures: BulkFailure[] = [];
  let readError: unknown;

  const bulkStats = await options.client.helpers.bulk<IndexedPassage>({
    datasource: passagesOf(options, stats, progress, (err) => (readError = err), replacing),
    onDocument: (passage) => [{ index: { _index: options.index, _id: passage.id } }, passage.doc],
    onDrop: (dropped) => {
      progress.rejected += 1;
      if (failures.length >= MAX_REPORTED_FAILURES) return;
      const reason = dropped.error ? `${dropped.error.type}: ${dropped.error.reason ?? ''}` : `status ${dropped.status}`;
      // The helper hands back the serialized payload, not our chunk: take the id from the action.
      const id = (dropped.operation as { index?: { _id?: string } }).index?._id ?? '?';
      failures.push({ id, status: dropped.status, reason });
    },
    retries: 3,
    wait: 1_000,
    refreshOnCompletion: options.index,
  });
  if (readError !== undefined) throw readError;

  return {
    index: options.index,
    file: options.file,
    documents: stats.documents,
    passages: progress.passages,
    embedded: progress.embedded,
    skipped: stats.skipped,
    malformedCount: stats.malformedCount,
    malformed: stats.malformed,
    duplicates: stats.duplicates,
    empty: stats.empty,
    failedCount: bulkStats.failed,
    failures,
    tookMs: Date.now() - started,
  };
}
