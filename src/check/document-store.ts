import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { ensureIndex } from '../es/ensure-index';
import type { DocumentVerdict } from '../shared/check/document';
import { DOCUMENTS_INDEX } from './document-index';

const storedDocumentSchema = z
  .object({ schemaVersion: z.literal(1), documentId: z.string(), claims: z.array(z.object({ position: z.number(), claim: z.string() }).passthrough()), scores: z.object({ k: z.number() }).passthrough() })
  .passthrough();

/** Document verdicts of `verity check` in `<prefix>-documents`, one per document id. */
export class DocumentStore {
  private ready = false;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  /** Idempotent: the same document checked again overwrites its verdict. */
  async store(verdict: DocumentVerdict): Promise<void> {
    await this.ensureIndex();
    await this.client.index({ index: this.index, id: verdict.documentId, document: verdict, refresh: 'wait_for' });
  }

  async get(documentId: string): Promise<DocumentVerdict | undefined> {
    await this.ensureIndex();
    const response = await this.client.get({ index: this.index, id: documentId }, { ignore: [404] });
    if (!response.found) return undefined;
    return storedDocumentSchema.parse(response._source) as unknown as DocumentVerdict;
  }

  /** Which of these documents have a stored verdict, with their spend (0 for verdicts stored before it was recorded). */
  async findUsage(documentIds: string[]): Promise<Record<string, { tokens: number; costUsd: number }>> {
    if (documentIds.length === 0) return {};
    await this.ensureIndex();
    const response = await this.client.mget<Pick<DocumentVerdict, 'usage'>>({ index: this.index, ids: documentIds, _source_includes: ['usage'] });
    const found: Record<string, { tokens: number; costUsd: number }> = {};
    for (const doc of response.docs) {
      if ('found' in doc && doc.found) found[doc._id] = { tokens: doc._source?.usage?.tokens ?? 0, costUsd: doc._source?.usage?.costUsd ?? 0 };
    }
    return found;
  }

  async ensureIndex(): Promise<void> {
    if (this.ready) return;
    await ensureIndex(this.client, this.index, DOCUMENTS_INDEX);
    // An index made before a field was mapped gets it (adding fields is allowed; documents stored before lack them).
    await this.client.indices.putMapping({ index: this.index, properties: DOCUMENTS_INDEX.mappings.properties ?? {} });
    this.ready = true;
  }
}
