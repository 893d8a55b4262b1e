import { identityHash, verificationHash, verifyWorkflowId } from '../identity';
import { DEFAULT_RETRIEVAL_MODE } from '../retrieval';
import type { VerifyClaimInput } from '../verify';
import { type CheckVerificationSettings, DEFAULT_F1_K, type DocumentRunItem } from './document';

/** The run of every verification `verity verify` and `verity check` start without --run. */
export const ADHOC_RUN_ID = 'adhoc';

/**
 * The verification of one claim, exactly as `verity verify "<claim>"` builds it under the same
 * settings (src/client/start-verification.ts): the same identity hash, claim id and workflow id, so
 * a claim verified before, by either command, is reused and never paid twice. A sweep's document
 * (`run`) verifies its claims in the sweep's run, where its report and explorer find them. Sandbox-safe.
 */
export function claimVerification(claim: string, settings: CheckVerificationSettings, run?: DocumentRunItem): { workflowId: string; input: VerifyClaimInput } {
  const { method, model, rag, identity } = settings;
  const { configHash, promptsHash, stamp } = identity;
  const hash = verificationHash({ claim, method, model, rag, ...(settings.settings ? { settings: settings.settings } : {}) }, { configHash, promptsHash });
  const input: VerifyClaimInput = {
    schemaVersion: 1,
    runId: run?.runId ?? ADHOC_RUN_ID,
    claimId: hash.slice(0, 16),
    claim: claim.trim(),
    ...(run ? { dataset: run.dataset } : {}),
    method,
    model,
    rag,
    ...(settings.settings ? { settings: settings.settings } : {}),
    identity: { configHash, promptsHash, stamp, hash },
    reply: 'summary',
  };
  return { workflowId: verifyWorkflowId({ runId: input.runId, claimId: input.claimId, method, model, hash }), input };
}

/**
 * A document check's identity: the text, the check prompts' versions, the K of its F1@K and
 * everything that decides its claims' verifications (their identity context included). Its first 24 characters are the document id.
 */
export function documentHash(parts: { text: string; checkPrompts: Record<string, string>; verification: CheckVerificationSettings; f1K?: number; run?: DocumentRunItem }): string {
  const { method, model, rag, settings, identity } = parts.verification;
  return identityHash({
    v: 1,
    // A sweep's document is its run's: the same text in another run is another document.
    ...(parts.run ? { run: { runId: parts.run.runId, itemId: parts.run.itemId } } : {}),
    text: parts.text,
    checkPrompts: parts.checkPrompts,
    f1K: parts.f1K ?? DEFAULT_F1_K,
    method,
    model,
    rag: { topK: rag.topK, index: rag.index, mode: rag.mode ?? DEFAULT_RETRIEVAL_MODE },
    settings: settings ?? {},
    configHash: identity.configHash,
    promptsHash: identity.promptsHash,
  });
}

/** `check/<document id>`. */
export function documentWorkflowId(documentId: string): string {
  return `check/${documentId}`;
}
