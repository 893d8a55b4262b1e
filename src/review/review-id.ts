import { createHash } from 'node:crypto';

/**
 * The id of a review document: one per reviewer × verification of a run. Two reviewers never
 * write the same document, so neither overwrites the other; a reviewer saving again replaces only
 * their own earlier review (the latest decision is the one that counts).
 */
export function reviewDocumentId(runId: string, workflowId: string, reviewer: string): string {
  return createHash('sha256').update(JSON.stringify([runId, workflowId, reviewer])).digest('hex');
}
