import { buildDocumentVerdict, type DocumentVerdictInput } from '../src/check/document-verdict';
import type { DocumentStore } from '../src/check/document-store';
import { splitSentences } from '../src/check/sentences';
import type { DocumentVerdictSummary } from '../src/shared/check/document';
import type { Verdict } from '../src/shared/verify';
import type { VerdictStore } from '../src/verdicts/verdict-store';
import { toEsFailure } from './support/es-failure';

export interface CheckActivityDeps {
  documents: DocumentStore;
  verdicts: VerdictStore;
}

/** The document steps of `verity check` that are not LLM calls. */
export function createCheckActivities({ documents, verdicts }: CheckActivityDeps) {
  return {
    /** The document's sentence spans (offsets only: the workflow slices the text it already has). */
    async splitDocument(input: { text: string }): Promise<{ start: number; end: number }[]> {
      return splitSentences(input.text).map(({ start, end }) => ({ start, end }));
    },

    /** Reads the claims' verdicts, scores the document and stores its verdict in `<prefix>-documents`. */
    async storeDocumentVerdict(input: DocumentVerdictInput & { text: string }): Promise<DocumentVerdictSummary> {
      try {
        const workflowIds = [...new Set(input.claims.flatMap((claim) => (claim.workflowId && !claim.failure ? [claim.workflowId] : [])))];
        const found = await Promise.all(workflowIds.map(async (id) => [id, await verdicts.get(id)] as const));
        const byId = new Map(found.filter((entry): entry is readonly [string, Verdict] => entry[1] !== undefined));
        const verdict = buildDocumentVerdict(input, splitSentences(input.text), byId, new Date());
        await documents.store(verdict);
        return { documentId: verdict.documentId, claimCount: verdict.claims.length, scores: verdict.scores };
      } catch (err) {
        throw toEsFailure(err);
      }
    },
  };
}
