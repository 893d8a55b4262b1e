import { identityHash, verificationHash, verifyWorkflowId } from '../identity';
import { DEFAULT_RETRIEVAL_MODE } from '../retrieval';
import type { VerifyClaimInput } from '../verify';
import { type CheckVerificationSettings, DEFAULT_F1_K } from './document';

/** The run of every verification `verity verify` and `verity check` start without --run. */
export const ADHOC_RUN_ID = 'adhoc';

/**
 * The verification of one claim, exactly as `verity verify "<claim>"` builds it under the same
 * settings (src/client/start-verification.ts): the same identity hash, claim id and workflow id, so
 * a claim verified before, by either command, is reused and never paid twice. Sandbox-safe.
 */
export function claimVerification(claim: string, settings: CheckVerificationSettings): { workflowId: string; input: VerifyClaimInput } {
  const { method, model, rag, identity } = settings;
  const { configHash, promptsHash, stamp } = identity;
  const hash = verificationHash({ claim, method, model, rag, ...(settings.settings ? { settings: settings.settings } : {}) }, { configHash, promptsHash });
  const input: VerifyClaimInput = {
    schemaVersion: 1,
    runId: ADHOC_RUN_ID,
    claimId: hash.slice(0, 16),
    claim: claim.trim(),
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
export function documentHash(parts: { text: string; checkPrompts: Record<string, string>; verification: CheckVerificationSettings; f1K?: number }): string {
  const { method, model, rag, settings, identity } = parts.verification;
  return identityHash({
    v: 1,
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
