import { type CheckStepUsage, DEFAULT_F1_K, type DocumentRunItem, type DocumentClaimRecord, type DocumentClaimVerdict, type DocumentVerdict, type SentenceSpan } from '../shared/check/document';
import { documentScores } from '../shared/check/document-scores';
import type { Verdict } from '../shared/verify';

export interface DocumentVerdictInput {
  documentId: string;
  source?: string;
  /** The sweep item the document is (absent for `verity check`). */
  run?: DocumentRunItem;
  /** The document's text, kept in the verdict so the explorer can show each sentence with its claims. */
  text?: string;
  method: DocumentVerdict['method'];
  model: string;
  checkPrompts: Record<string, string>;
  claims: DocumentClaimRecord[];
  unreadableSentences: number[];
  runs: number;
  f1K?: number;
  stepUsage?: CheckStepUsage;
}

/**
 * The document verdict from its claims and their verifications' verdicts: each claim with its
 * sentence's span, label and evidence (a duplicate shows the label of the claim it repeats) and
 * the document's scores. A verification that finished without a stored verdict counts as failed.
 */
export function buildDocumentVerdict(input: DocumentVerdictInput, sentences: readonly SentenceSpan[], verdicts: ReadonlyMap<string, Verdict>, finishedAt: Date): DocumentVerdict {
  const claims: DocumentClaimVerdict[] = input.claims.map((record, position) => {
    const sentence = sentences[record.sentence];
    const verdict = record.workflowId && !record.failure ? verdicts.get(record.workflowId) : undefined;
    const failure = record.failure ?? (record.workflowId && !verdict ? 'the verification finished without a stored verdict' : undefined);
    return {
      position,
      sentence: record.sentence,
      span: { start: sentence?.start ?? 0, end: sentence?.end ?? 0 },
      sentenceText: sentence?.text ?? '',
      extracted: record.extracted,
      claim: record.claim,
      ...(record.skipped ? { skipped: record.skipped } : {}),
      ...(record.duplicateOf !== undefined ? { duplicateOf: record.duplicateOf } : {}),
      ...(record.workflowId ? { workflowId: record.workflowId } : {}),
      ...(verdict ? { label: verdict.label, evidenceIds: verdict.citedPassageIds.length > 0 ? verdict.citedPassageIds : verdict.evidence.map((e) => e.id) } : {}),
      ...(failure ? { failure } : {}),
    };
  });
  for (const claim of claims) {
    const original = claim.duplicateOf === undefined ? undefined : claims[claim.duplicateOf];
    if (original?.label) Object.assign(claim, { label: original.label, evidenceIds: original.evidenceIds, workflowId: original.workflowId });
  }
  return {
    schemaVersion: 1,
    documentId: input.documentId,
    ...(input.source ? { source: input.source } : {}),
    ...(input.run ? { runId: input.run.runId, itemId: input.run.itemId, dataset: input.run.dataset } : {}),
    ...(input.text !== undefined ? { text: input.text } : {}),
    method: input.method,
    model: input.model,
    checkPrompts: input.checkPrompts,
    sentenceCount: sentences.length,
    unreadableSentences: input.unreadableSentences,
    claims,
    scores: documentScores(claims, input.f1K ?? DEFAULT_F1_K),
    ...(input.stepUsage ? { stepUsage: input.stepUsage } : {}),
    runs: input.runs,
    finishedAt: finishedAt.toISOString(),
  };
}
