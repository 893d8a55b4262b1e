import type { RunClaim, SweepInput, SweepVariant } from '../sweep';
import { methodIdentityContext } from '../identity';
import { settingsOfMethod } from '../method-settings';
import { documentHash, documentWorkflowId } from './claim-verification';
import type { CheckDocumentInput, CheckVerificationSettings } from './document';

/** `check` of a sweep config: every dataset item is a whole text, checked as a document. */
export interface SweepCheck {
  /** id → version of the check.* LLM tasks, part of each document's identity. */
  checkPrompts: Record<string, string>;
  f1K?: number;
  /** Sentences and claim verifications in flight per document. */
  window?: number;
}

/**
 * The document check of one (item, variant) of a sweep with `check`: the item's text checked as
 * `verity check` would, its claims verified in the sweep's run. Sandbox-safe (the sweep workflow
 * builds it); needs the sweep's identity, which every sweep with `check` has.
 */
export function sweepDocumentCheck(input: SweepInput, check: SweepCheck, item: RunClaim, variant: SweepVariant): { workflowId: string; documentId: string; checkInput: CheckDocumentInput } {
  if (!input.identity) throw new Error(`sweep ${input.runId} has no identity; a sweep with check needs one`);
  const settings = settingsOfMethod(input.settings, variant.method);
  const verification: CheckVerificationSettings = {
    method: variant.method,
    model: variant.model,
    rag: { topK: input.rag.topK, index: input.datasets[item.datasetPosition]?.index ?? input.rag.index },
    ...(settings ? { settings } : {}),
    identity: { ...methodIdentityContext(input.identity, variant.method), stamp: input.identity.stamp },
  };
  const run = { runId: input.runId, itemId: item.claimId, dataset: item.dataset };
  const documentId = documentHash({ text: item.claim, checkPrompts: check.checkPrompts, verification, run, ...(check.f1K !== undefined ? { f1K: check.f1K } : {}) }).slice(0, 24);
  return {
    workflowId: documentWorkflowId(documentId),
    documentId,
    checkInput: {
      schemaVersion: 1,
      documentId,
      text: item.claim,
      source: `${item.dataset}/${item.claimId}`,
      run,
      verification,
      checkPrompts: check.checkPrompts,
      ...(check.f1K !== undefined ? { f1K: check.f1K } : {}),
      ...(check.window !== undefined ? { window: check.window } : {}),
    },
  };
}
