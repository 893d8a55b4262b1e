import { buildDocumentVerdict, type DocumentVerdictInput } from '../src/check/document-verdict';
import type { DocumentStore } from '../src/check/document-store';
import { splitSentences } from '../src/check/sentences';
import type { CheckStepUsage, DocumentVerdictSummary } from '../src/shared/check/document';
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

    /** Which of these documents (of a sweep with `check`) already have a stored verdict, with their spend. */
    async findDocumentVerdicts(input: { documentIds: string[] }): Promise<Record<string, { tokens: number; costUsd: number }>> {
      try {
        return await documents.findUsage(input.documentIds);
      } catch (err) {
        throw toEsFailure(err);
      }
    },

    /** Reads the claims' verdicts, scores the document and stores its verdict in `<prefix>-documents`. */
    async storeDocumentVerdict(input: DocumentVerdictInput & { text: string }): Promise<DocumentVerdictSummary> {
      try {
        const workflowIds = [...new Set(input.claims.flatMap((claim) => (claim.workflowId && !claim.failure ? [claim.workflowId] : [])))];
        const found = await Promise.all(workflowIds.map(async (id) => [id, await verdicts.get(id)] as const));
        const byId = new Map(found.filter((entry): entry is readonly [string, Verdict] => entry[1] !== undefined));
        const usage = documentUsage(input.stepUsage, byId.values());
        const verdict = { ...buildDocumentVerdict(input, splitSentences(input.text), byId, new Date()), usage };
        await documents.store(verdict);
        return { documentId: verdict.documentId, claimCount: verdict.claims.length, scores: verdict.scores, usage };
      } catch (err) {
        throw toEsFailure(err);
      }
    },
  };
}

/** A document's spend: its steps' LLM calls and its claims' verifications (a verdict reused from earlier counts its original spend). */
function documentUsage(steps: CheckStepUsage | undefined, verdicts: Iterable<Verdict>): { tokens: number; costUsd: number } {
  let tokens = steps?.totalTokens ?? 0;
  let costUsd = steps?.costUsd ?? 0;
  for (const verdict of verdicts) {
    tokens += verdict.usage.totalTokens;
    costUsd += verdict.usage.costUsd;
  }
  return { tokens, costUsd };
}
