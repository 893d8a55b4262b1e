import { ADHOC_RUN_ID } from '../../shared/check/claim-verification';
import type { DocumentClaimVerdict, DocumentVerdict } from '../../shared/check/document';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function statusOf(claim: DocumentClaimVerdict): string {
  if (claim.skipped === 'duplicate') return `${claim.label ?? 'SKIPPED'} (repeats #${(claim.duplicateOf ?? 0) + 1})`;
  if (claim.skipped) return `SKIPPED (${claim.skipped})`;
  if (claim.failure) return 'FAILED';
  return claim.label ?? 'FAILED';
}

const ratio = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));

/** One block per claim (status, claim, the sentence it came from with its span), then the document's scores. */
export function formatDocumentVerdict(verdict: DocumentVerdict): string {
  const lines: string[] = [];
  for (const claim of verdict.claims) {
    lines.push(`#${claim.position + 1} ${statusOf(claim)}  ${claim.claim}`);
    lines.push(`     sentence ${claim.sentence + 1} [${claim.span.start}-${claim.span.end}]: ${clip(claim.sentenceText, 160)}`);
    if (claim.failure) lines.push(`     failure: ${claim.failure}`);
  }
  if (verdict.unreadableSentences.length > 0) lines.push(`sentences without readable claims: ${verdict.unreadableSentences.map((s) => s + 1).join(', ')}`);
  const { scores } = verdict;
  lines.push(
    '',
    `${verdict.claims.length} claims from ${verdict.sentenceCount} sentences: ${scores.supported} supported, ${scores.notSupported} not supported (${scores.nei} NEI), ${scores.skipped} not verified, ${scores.failed} failed`,
    `precision ${ratio(scores.precision)}  recall@${scores.k} ${ratio(scores.recallAtK)}  F1@${scores.k} ${ratio(scores.f1AtK)}`,
  );
  const steps = verdict.stepUsage;
  if (steps) {
    lines.push(
      `document steps: ${steps.llmCalls} LLM calls (${steps.cachedLlmCalls} from the cache, ${steps.invalidAnswers} invalid), ${steps.totalTokens} tokens, $${steps.costUsd.toFixed(4)}; the verifications' own usage is in their verdicts`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Where the explorer shows a checked document: `verity view adhoc` on its default port, then the document's link. */
export function explorerHint(documentId: string): string {
  return `view it with its sentences highlighted: verity view ${ADHOC_RUN_ID}, then open http://127.0.0.1:8800/#document=${encodeURIComponent(documentId)}`;
}
