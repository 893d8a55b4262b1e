import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { LlmTaskResult } from '../src/llm/types';
import type { RagVerdictOutput } from '../src/methods/rag/verdict-task';
import { llmTaskQueue } from '../src/shared/task-queues';
import type { EvidencePassage, VerifyClaimInput } from '../src/shared/verify';
import { LLM_CALL, RETRIEVAL } from './activity-options';
import type { VerifyProgress } from './definitions';

const { retrievePassages } = proxyActivities<Activities>(RETRIEVAL);

export interface RagOutcome {
  evidence: EvidencePassage[];
  judgement: LlmTaskResult<RagVerdictOutput>;
}

/**
 * The `rag` baseline: retrieve the top-k passages for the claim, then one LLM verdict that
 * cites the passages it relies on.
 */
export async function runRag(input: VerifyClaimInput, progress: VerifyProgress): Promise<RagOutcome> {
  progress.stage = 'retrieving';
  const { topK, index, mode } = input.rag;
  const { passages } = await retrievePassages({ query: input.claim, index, k: topK, ...(mode ? { mode } : {}) });
  progress.toolCalls += 1;

  progress.stage = 'judging';
  // LLM calls go to the rate-limited queue next to this workflow's own.
  const { llmTask } = proxyActivities<Activities>({ ...LLM_CALL, taskQueue: llmTaskQueue(workflowInfo().taskQueue) });
  const judgement = (await llmTask({
    task: 'rag.verdict',
    model: input.model,
    variables: { claim: input.claim, passages: passages.map(({ id, title, text }) => ({ id, title, text })) },
  })) as LlmTaskResult<RagVerdictOutput>;
  progress.llmCalls += 1;

  return { evidence: passages, judgement };
}
