/**
 * The indices of one harness condition: `<prefix>-wiki` and `<prefix>-web` with the clean corpora
 * plus the condition's injected documents.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import type { CorpusDocument } from '../../src/corpus/document';
import { ingestCorpus, WIKI_TARGET, type PassageTarget } from '../../src/corpus/ingest';
import { indexName } from '../../src/es/indices';
import { WEB_TARGET } from '../../src/search/web-index';

export interface CorpusFiles {
  wiki: string;
  /** Recorded web passages; the web index holds only the injected pages without it. */
  web?: string;
}

const TARGETS: Record<'wiki' | 'web', PassageTarget> = { wiki: WIKI_TARGET, web: WEB_TARGET };

async function ingestDocuments(es: Client, index: string, target: PassageTarget, documents: readonly CorpusDocument[]): Promise<void> {
  if (documents.length === 0) {
    await target.ensureIndex(es, index);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-poisoning-'));
  const file = path.join(dir, 'documents.jsonl');
  try {
    fs.writeFileSync(file, documents.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const result = await ingestCorpus({ client: es, index, file, target, strict: true });
    if (result.failedCount > 0) throw new Error(`Elasticsearch rejected ${result.failedCount} injected passages in ${index}: ${result.failures[0]?.reason ?? ''}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Ingests the clean corpora into `<prefix>-wiki` / `<prefix>-web` and adds the condition's injected
 * documents. (Ingested from the files per condition: the minimal Elasticsearch distribution has
 * no _reindex.)
 */
export async function buildConditionIndices(
  es: Client,
  prefix: string,
  files: CorpusFiles,
  injected: { wiki: readonly CorpusDocument[]; web: readonly CorpusDocument[] },
): Promise<void> {
  for (const kind of ['wiki', 'web'] as const) {
    const index = indexName(prefix, kind);
    const file = files[kind];
    if (file) {
      const result = await ingestCorpus({ client: es, index, file, target: TARGETS[kind] });
      if (result.failedCount > 0) throw new Error(`Elasticsearch rejected ${result.failedCount} passages of ${file}`);
    }
    await ingestDocuments(es, index, TARGETS[kind], injected[kind]);
    await es.indices.refresh({ index });
  }
}

/** Deletes every index whose name starts with `<prefix>-`. */
export async function deleteIndices(es: Client, prefix: string): Promise<void> {
  const indices = Object.keys(await es.indices.get({ index: `${prefix}-*`, allow_no_indices: true, ignore_unavailable: true }));
  if (indices.length > 0) await es.indices.delete({ index: indices }, { ignore: [404] });
}
