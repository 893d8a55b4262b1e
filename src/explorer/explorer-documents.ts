import type { Client, estypes } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../es/client';
import { ADHOC_RUN_ID } from '../shared/check/claim-verification';
import type { DocumentScores, DocumentVerdict } from '../shared/check/document';
import { searchPage } from './deep-page';

/** One checked document in the explorer's documents table. */
export interface ExplorerDocumentRow {
  documentId: string;
  source?: string;
  method: string;
  model: string;
  sentenceCount: number;
  /** All claims extracted from the document: verified, skipped and failed. */
  claims: number;
  scores: DocumentScores;
  finishedAt: string;
}

/**
 * The document verdicts of one run (`verity check`, issue 30): `<prefix>-documents` holds them
 * under their document id. Verdicts of `verity check` carry no run id: they belong to run `adhoc`.
 */
export class ExplorerDocuments {
  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly runId: string,
  ) {}

  /** The run's documents, newest first (the text and claims stay in Elasticsearch). */
  async list(from: number, size: number): Promise<{ total: number; documents: ExplorerDocumentRow[] }> {
    let response: estypes.SearchResponse<DocumentVerdict>;
    try {
      response = await searchPage<DocumentVerdict>(this.client, this.index, {
        from,
        size,
        track_total_hits: true,
        query: documentsOfRun(this.runId),
        sort: [{ finishedAt: { order: 'desc', unmapped_type: 'date' } }, { documentId: { order: 'asc', unmapped_type: 'keyword' } }],
        _source: { excludes: ['text', 'claims', 'checkPrompts'] },
      });
    } catch (err) {
      if (isIndexNotFound(err)) return { total: 0, documents: [] };
      throw err;
    }
    const total = response.hits.total;
    return {
      total: typeof total === 'number' ? total : (total?.value ?? 0),
      documents: response.hits.hits.flatMap((hit) => (hit._source ? [rowOf(hit._source)] : [])),
    };
  }

  /** One document verdict whole (text, claims, scores), if it belongs to the run. */
  async get(documentId: string): Promise<DocumentVerdict | undefined> {
    const doc = await this.client.get<DocumentVerdict>({ index: this.index, id: documentId }, { ignore: [404] }).catch((err: unknown) => {
      if (isIndexNotFound(err)) return undefined;
      throw err;
    });
    if (!doc?.found || !doc._source || (doc._source.runId ?? ADHOC_RUN_ID) !== this.runId) return undefined;
    return doc._source;
  }
}

/** The run's documents; run `adhoc` also has those stored without a run id. */
export function documentsOfRun(runId: string): estypes.QueryDslQueryContainer {
  if (runId !== ADHOC_RUN_ID) return { term: { runId } };
  return { bool: { should: [{ term: { runId } }, { bool: { must_not: { exists: { field: 'runId' } } } }], minimum_should_match: 1 } };
}

function rowOf(verdict: DocumentVerdict): ExplorerDocumentRow {
  const { scores } = verdict;
  return {
    documentId: verdict.documentId,
    ...(verdict.source !== undefined ? { source: verdict.source } : {}),
    method: verdict.method,
    model: verdict.model,
    sentenceCount: verdict.sentenceCount,
    // Every claim is counted once: skipped, failed, supported or not supported (NEI among those).
    claims: scores.supported + scores.notSupported + scores.skipped + scores.failed,
    scores,
    finishedAt: verdict.finishedAt,
  };
}
