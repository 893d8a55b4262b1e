import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { DecontextualiseOutput, ExtractOutput, WorthinessOutput } from '../src/check/tasks';
import type { LlmTaskInput, LlmTaskResult, LlmUsage } from '../src/llm/types';
import { ClaimDedup } from '../src/shared/check/claim-key';
import { claimVerification } from '../src/shared/check/claim-verification';
import { sentenceContext } from '../src/shared/check/context';
import {
  CHECK_CONTEXT_CHARS,
  type CheckDocumentInput,
  type CheckStepUsage,
  EMPTY_CHECK_STEP_USAGE,
  type CheckDocumentState,
  type CheckProgress,
  DEFAULT_CHECK_WINDOW,
  DEFAULT_CLAIMS_PER_RUN,
  type DocumentClaimRecord,
  type DocumentVerdictSummary,
  type SkipReason,
} from '../src/shared/check/document';
import { FAILURE_TYPES, MAX_CLAIM_CHARS } from '../src/shared/constants';
import { describeFailure } from '../src/shared/failure';
import { llmTaskQueue } from '../src/shared/task-queues';
import { characterCount } from '../src/shared/verify';
import { AWAIT_CHILD, LLM_CALL, RETRIEVAL, WRITE } from './activity-options';
import { checkProgressQuery } from '../src/shared/definitions/check';
import { shortReads } from './es-activities';
import { hasPatch } from './has-patch';
import { PATCHES } from '../src/shared/patches';
import { startVerifyChild } from './verify-child';

const { findVerdicts } = proxyActivities<Activities>(RETRIEVAL);
const { storeDocumentVerdict } = proxyActivities<Activities>(WRITE);
const { awaitVerification } = proxyActivities<Activities>(AWAIT_CHILD);

type NewClaim = Pick<DocumentClaimRecord, 'extracted' | 'claim' | 'skipped'>;

/**
 * Checks a whole text (issue 30): splits it into sentences, extracts each sentence's atomic claims,
 * makes each self-contained and judges it check-worthy (each an LLM activity), then verifies every
 * check-worthy claim once as a child verifyClaimWorkflow under the same identity as `verity verify`,
 * so a claim verified before is reused. Claims that are not check-worthy, or repeat an earlier
 * claim, are kept with their reason. Sentences and children run in a window; after `claimsPerRun`
 * claims a run continues as new with its state. The verdict goes to `<prefix>-documents`.
 */
export async function checkDocumentWorkflow(input: CheckDocumentInput): Promise<DocumentVerdictSummary> {
  const window = input.window ?? DEFAULT_CHECK_WINDOW;
  const claimsPerRun = input.claimsPerRun ?? DEFAULT_CLAIMS_PER_RUN;
  if (!Number.isInteger(window) || window < 1) throw ApplicationFailure.nonRetryable(`window must be a whole number above 0, not ${window}`, FAILURE_TYPES.invalidInput);
  if (!Number.isInteger(claimsPerRun) || claimsPerRun < 1) throw ApplicationFailure.nonRetryable(`claimsPerRun must be a whole number above 0, not ${claimsPerRun}`, FAILURE_TYPES.invalidInput);
  const state: CheckDocumentState = input.state ?? { phase: 'extract', nextSentence: 0, nextClaim: 0, claims: [], unreadableSentences: [], runs: 1 };
  const progress: CheckProgress = { phase: 'split', sentences: 0, sentencesDone: state.nextSentence, claims: state.claims.length, toVerify: 0, verified: 0 };
  setHandler(checkProgressQuery, () => ({ ...progress, claims: state.claims.length }));

  const spans = await shortReads().splitDocument.executeWithOptions({ summary: 'split into sentences' }, [{ text: input.text }]);
  if (spans.length === 0) throw ApplicationFailure.nonRetryable('the document has no sentence to check', FAILURE_TYPES.invalidInput);
  const sentences = spans.map((span) => input.text.slice(span.start, span.end));
  progress.sentences = sentences.length;

  // Straight to the LLM queue (whose activity answers from the request cache too), not through the
  // cache-first local activity: concurrent local activities that resolve in one workflow task replay
  // in another order than they ran, and the claim steps of a window of sentences run concurrently.
  const { llmTask } = proxyActivities<Activities>({ ...LLM_CALL, taskQueue: llmTaskQueue(workflowInfo().taskQueue) });
  const llm = <T>(call: LlmTaskInput, summary: string) => llmTask.executeWithOptions({ summary }, [call]) as Promise<LlmTaskResult<T>>;
  const model = input.verification.model;
  const usage: CheckStepUsage = { ...EMPTY_CHECK_STEP_USAGE, ...state.stepUsage };
  state.stepUsage = usage;
  function countCall(paid: LlmUsage | undefined, cached: boolean): void {
    usage.llmCalls += 1;
    if (cached) usage.cachedLlmCalls += 1;
    if (!paid) return;
    usage.promptTokens += paid.promptTokens;
    usage.completionTokens += paid.completionTokens;
    usage.totalTokens += paid.totalTokens;
    usage.costUsd += paid.costUsd;
  }
  /** The task's answer, or undefined when the model gave no valid one (the step then falls back). */
  async function ask<T>(task: string, variables: Record<string, unknown>, summary: string): Promise<T | undefined> {
    try {
      const result: LlmTaskResult<T> = await llm<T>({ task, variables, model }, summary);
      countCall(result.cached ? undefined : result.usage, result.cached);
      return result.output;
    } catch (err) {
      if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === FAILURE_TYPES.llmOutputInvalid) {
        countCall(undefined, false);
        usage.invalidAnswers += 1;
        return undefined;
      }
      // A prompt that cannot fit the window (an over-long sentence) gets no answer either; nothing was paid.
      if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === FAILURE_TYPES.llmContextExceeded && hasPatch(PATCHES.checkOverlongSentenceUnreadable)) {
        return undefined;
      }
      throw err;
    }
  }

  async function checkClaim(extracted: string, context: string, where: string): Promise<NewClaim> {
    const self = await ask<DecontextualiseOutput>('check.decontextualise', { claim: extracted, context }, `decontextualise · ${where}`);
    const claim = self?.claim.trim() || extracted;
    if (characterCount(claim) > MAX_CLAIM_CHARS) return { extracted, claim, skipped: 'too-long' };
    // No readable answer: the claim is checked (a fact-checker would rather check one too many).
    const worthiness = await ask<WorthinessOutput>('check.worthiness', { claim, context }, `check-worthiness · ${where}`);
    const skipped: SkipReason | undefined = worthiness && !worthiness.check_worthy ? (worthiness.reason === 'check-worthy' ? 'not-factual' : worthiness.reason) : undefined;
    return { extracted, claim, ...(skipped ? { skipped } : {}) };
  }

  /** The sentence's claims, or undefined when its extraction gave no readable answer. */
  async function claimsOf(sentence: number): Promise<NewClaim[] | undefined> {
    const context = sentenceContext(sentences, sentence, CHECK_CONTEXT_CHARS);
    const where = `sentence ${sentence + 1}`;
    const extraction = await ask<ExtractOutput>('check.extract', { sentence: sentences[sentence], context }, `extract claims · ${where}`);
    if (!extraction) return undefined;
    const extracted = extraction.claims.map((claim) => claim.trim()).filter((claim) => claim !== '');
    return Promise.all(extracted.map((claim, i) => checkClaim(claim, context, `${where} · claim ${i + 1}`)));
  }

  const dedup = new ClaimDedup();
  state.claims.forEach((claim, position) => {
    if (claim.duplicateOf === undefined) dedup.add(claim.claim, position);
  });
  let claimsThisRun = 0;

  progress.phase = 'extract';
  while (state.phase === 'extract') {
    if (state.nextSentence >= sentences.length) {
      state.phase = 'verify';
      break;
    }
    if (claimsThisRun >= claimsPerRun) await continueAsNew<typeof checkDocumentWorkflow>({ ...input, state: { ...state, runs: state.runs + 1 } });
    const batch = range(state.nextSentence, Math.min(state.nextSentence + window, sentences.length));
    const results = await Promise.all(batch.map(claimsOf));
    batch.forEach((sentence, i) => {
      const claims = results[i];
      if (!claims) state.unreadableSentences.push(sentence);
      for (const claim of claims ?? []) {
        const position = state.claims.length;
        const duplicateOf = dedup.add(claim.claim, position);
        state.claims.push({ sentence, ...claim, ...(duplicateOf !== undefined ? { duplicateOf, skipped: 'duplicate' as const } : {}) });
        claimsThisRun += 1;
      }
    });
    state.nextSentence = batch.at(-1)! + 1;
    progress.sentencesDone = state.nextSentence;
  }

  progress.phase = 'verify';
  const toVerify = (claim: DocumentClaimRecord) => claim.skipped === undefined;
  progress.toVerify = state.claims.filter(toVerify).length;
  progress.verified = state.claims.slice(0, state.nextClaim).filter(toVerify).length;
  let verifiedThisRun = 0;
  while (state.nextClaim < state.claims.length) {
    if (verifiedThisRun >= claimsPerRun) await continueAsNew<typeof checkDocumentWorkflow>({ ...input, state: { ...state, runs: state.runs + 1 } });
    const page: number[] = [];
    let position = state.nextClaim;
    for (; position < state.claims.length && page.length < claimsPerRun - verifiedThisRun; position++) if (toVerify(state.claims[position]!)) page.push(position);
    await verifyPage(page);
    verifiedThisRun += page.length;
    state.nextClaim = position;
  }

  async function verifyPage(positions: number[]): Promise<void> {
    const verifications = positions.map((position) => ({ record: state.claims[position]!, ...claimVerification(state.claims[position]!.claim, input.verification, input.run) }));
    for (const { record, workflowId } of verifications) record.workflowId = workflowId;
    const stored = await findVerdicts({ workflowIds: verifications.map((v) => v.workflowId) });
    const running = new Set<Promise<void>>();
    for (const verification of verifications) {
      if (verification.workflowId in stored) {
        progress.verified += 1;
        continue;
      }
      while (running.size >= window) await Promise.race(running);
      const done: Promise<void> = verify(verification).then(() => {
        running.delete(done);
        progress.verified += 1;
      });
      running.add(done);
    }
    await Promise.all(running);
  }

  async function verify({ record, workflowId, input: verifyInput }: { record: DocumentClaimRecord; workflowId: string; input: ReturnType<typeof claimVerification>['input'] }): Promise<void> {
    try {
      const child = await startVerifyChild(workflowId, verifyInput);
      await child.result().catch((err: Error) => {
        record.failure = describeFailure(err);
      });
    } catch (err) {
      // Running or done already (another document, `verity verify`, an earlier attempt): wait for that one.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      const outcome = await awaitVerification({ workflowId });
      if (!outcome.ok) record.failure = outcome.reason;
    }
  }

  progress.phase = 'storing';
  const summary = await storeDocumentVerdict({
    documentId: input.documentId,
    ...(input.source ? { source: input.source } : {}),
    ...(input.run ? { run: input.run } : {}),
    text: input.text,
    method: input.verification.method,
    model,
    checkPrompts: input.checkPrompts,
    claims: state.claims,
    unreadableSentences: state.unreadableSentences,
    runs: state.runs,
    stepUsage: usage,
    ...(input.f1K ? { f1K: input.f1K } : {}),
  });
  progress.phase = 'done';
  return summary;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
