import { ApplicationFailure, isCancellation, setCurrentDetails, setHandler, TemporalFailure, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { progressDetails, storeVerdictSummary } from '../src/shared/activity-summaries';
import { FAILURE_TYPES, MAX_CLAIM_CHARS } from '../src/shared/constants';
import { methodSamplingOf } from '../src/shared/sampling';
import { FAILED_AFTER_SPENDING_TYPE, LIMIT_REACHED_TYPE } from '../src/shared/verification-limits';
import { findVerifyInputProblem, summarizeVerdict, type Verdict, type VerdictSummary, type VerifyClaimInput } from '../src/shared/verify';
import { progressQuery, type VerifyProgress } from '../src/shared/definitions/verify';
import { shortWrites } from './es-activities';
import { createMethodRun } from './method-run';
import { METHOD_RUNNERS } from './method-runners';
import { PATCHES } from '../src/shared/patches';
import { SEARCH_ATTRIBUTE_KEYS } from '../src/shared/search-attributes';
import { hasPatch } from './has-patch';

/**
 * Verifies one claim with the chosen method, stores the verdict in Elasticsearch and returns it
 * (or only its summary, when the input asks: sweeps). Its workflow id comes from identity.ts.
 */
export async function verifyClaimWorkflow(input: VerifyClaimInput): Promise<Verdict | VerdictSummary> {
  const progress: VerifyProgress = { stage: 'validating', llmCalls: 0, toolCalls: 0 };
  setHandler(progressQuery, () => progress);

  const problem = findVerifyInputProblem(input, { utf16Units: countsUtf16Units(input) });
  if (problem) {
    throw ApplicationFailure.nonRetryable(`invalid verification input: ${problem}`, FAILURE_TYPES.invalidInput);
  }

  const startedAt = Date.now();
  const run = createMethodRun(input, progress);
  let outcome;
  try {
    outcome = await METHOD_RUNNERS[input.method](run);
  } catch (err) {
    throw withSpend(err, run.meter.usage);
  }
  const finishedAt = Date.now();
  const spent = run.meter.summary();
  const sampling = methodSamplingOf(input.settings, input.method);

  const verdict: Verdict = {
    schemaVersion: 1,
    workflowId: workflowInfo().workflowId,
    runId: input.runId,
    claimId: input.claimId,
    ...(input.dataset ? { dataset: input.dataset } : {}),
    method: input.method,
    claim: input.claim,
    label: outcome.label,
    ...(outcome.methodLabel !== undefined ? { methodLabel: outcome.methodLabel } : {}),
    rationale: outcome.rationale,
    citedPassageIds: outcome.citedPassageIds,
    evidence: outcome.evidence,
    // A method that decided without any LLM call (e.g. a memory-only answer) names the input's model.
    model: spent.lastCall?.model ?? input.model,
    temperature: spent.lastCall?.temperature ?? 0,
    seed: spent.lastCall?.seed ?? 0,
    ...(sampling ? { sampling } : {}),
    promptVersion: spent.promptVersions.join(','),
    usage: spent.usage,
    ...(outcome.trace ? { trace: outcome.trace } : {}),
    ...(spent.transcript ? { transcript: spent.transcript } : {}),
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(finishedAt).toISOString(),
    durationMs: finishedAt - startedAt,
  };

  progress.stage = 'storing';
  run.showProgress();
  await shortWrites().storeVerdict.executeWithOptions({ summary: storeVerdictSummary(verdict.label, verdict.method) }, [verdict]);
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTE_KEYS.label, value: verdict.label }]);
  progress.stage = 'done';
  setCurrentDetails(`${progressDetails(progress)} · **${verdict.label}**`);
  return input.reply === 'summary' ? summarizeVerdict(verdict) : verdict;
}

/**
 * A verification that fails after paying for LLM calls says what it spent (the cause kept as is), so
 * a sweep's budget counts it. Cancellations, limits (which carry their spend) and errors that are
 * not Temporal failures (a workflow task retries those) pass unchanged, as in executions recorded before.
 */
function withSpend(err: unknown, usage: { totalTokens: number; costUsd: number }): unknown {
  if (isCancellation(err) || !(err instanceof TemporalFailure)) return err;
  if (err instanceof ApplicationFailure && err.type === LIMIT_REACHED_TYPE) return err;
  if (usage.totalTokens === 0 && usage.costUsd === 0) return err;
  if (!hasPatch(PATCHES.invalidAnswersCounted)) return err;
  return ApplicationFailure.create({
    message: `the verification failed after spending ${usage.totalTokens} tokens ($${usage.costUsd.toFixed(6)})`,
    type: FAILED_AFTER_SPENDING_TYPE,
    nonRetryable: true,
    details: [{ usage: { totalTokens: usage.totalTokens, costUsd: usage.costUsd } }],
    cause: err,
  });
}

/**
 * Executions recorded before claims were measured in characters measured UTF-16 units. Only a claim
 * over the limit in units can be judged differently, so only such a claim asks for the patch marker.
 */
function countsUtf16Units(input: VerifyClaimInput): boolean {
  if (typeof input.claim !== 'string' || input.claim.length <= MAX_CLAIM_CHARS) return false;
  return !hasPatch(PATCHES.claimLengthInCharacters);
}
