import { ApplicationFailure, proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { FAILURE_TYPES } from '../src/shared/constants';
import { findVerifyInputProblem, type Verdict, type VerifyClaimInput } from '../src/shared/verify';
import { WRITE } from './activity-options';
import { progressQuery, type VerifyProgress } from './definitions';
import { runRag } from './rag.workflow';
import { SEARCH_ATTRIBUTE_KEYS } from './search-attributes';

const { storeVerdict } = proxyActivities<Activities>(WRITE);

/**
 * Verifies one claim with the chosen method, stores the verdict in Elasticsearch and returns it.
 * Its workflow id is the business key `verify/<run>/<claim>/<method>`.
 */
export async function verifyClaimWorkflow(input: VerifyClaimInput): Promise<Verdict> {
  const progress: VerifyProgress = { stage: 'validating', llmCalls: 0, toolCalls: 0 };
  setHandler(progressQuery, () => progress);

  const problem = findVerifyInputProblem(input);
  if (problem) {
    throw ApplicationFailure.nonRetryable(`invalid verification input: ${problem}`, FAILURE_TYPES.invalidInput);
  }

  const startedAt = Date.now();
  const { evidence, judgement } = await runRag(input, progress);
  const finishedAt = Date.now();

  const verdict: Verdict = {
    schemaVersion: 1,
    workflowId: workflowInfo().workflowId,
    runId: input.runId,
    claimId: input.claimId,
    ...(input.dataset ? { dataset: input.dataset } : {}),
    method: input.method,
    claim: input.claim,
    label: judgement.output.label,
    rationale: judgement.output.rationale,
    citedPassageIds: judgement.output.citedPassageIds,
    evidence,
    model: judgement.model,
    temperature: judgement.temperature,
    seed: judgement.seed,
    promptVersion: judgement.promptVersion,
    usage: {
      llmCalls: progress.llmCalls,
      cachedLlmCalls: judgement.cached ? 1 : 0,
      toolCalls: progress.toolCalls,
      promptTokens: judgement.usage.promptTokens,
      completionTokens: judgement.usage.completionTokens,
      totalTokens: judgement.usage.totalTokens,
      costUsd: judgement.usage.costUsd,
    },
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(finishedAt).toISOString(),
    durationMs: finishedAt - startedAt,
  };

  progress.stage = 'storing';
  await storeVerdict(verdict);
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTE_KEYS.label, value: verdict.label }]);
  progress.stage = 'done';
  return verdict;
}
