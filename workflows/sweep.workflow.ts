import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { settingsOfMethod } from '../src/shared/method-settings';
import type { Activities } from '../activities';
import { sweepProgressDetails } from '../src/shared/activity-summaries';
import { describeFailure, failureType } from '../src/shared/failure';
import { exceedsFailureRate, failureBaseline, tallyFailureReason } from '../src/shared/failure-policy';
import { spentBeforeLimit } from '../src/shared/verification-limits';
import { budgetSlots, hasBudget } from '../src/shared/sweep-budget';
import {
  CANCELLED_CLOSE_WAIT,
  CANCELLED_WITH_SWEEP,
  countOutcome,
  DEFAULT_STUCK_AFTER_MS,
  DEFAULT_SWEEP_MAX_HISTORY_EVENTS,
  DEFAULT_SWEEP_PAGE_SIZE,
  findBudgetProblem,
  freeSlots,
  initialSweepState,
  isBudgetExhausted,
  isFinished,
  repeatedWorkItem,
  type RunClaim,
  type SweepBudget,
  settingsOfRepeat,
  stuckCheckIntervalMs,
  type SweepChildOutcome,
  type SweepChildRef,
  type SweepInput,
  type SweepProgress,
  type SweepStatus,
  type SweepVariant,
  sweepProgress,
  totalItems,
} from '../src/shared/sweep';
import { isLongIdPart, methodIdentityContext, verificationHash, verifyWorkflowId } from '../src/shared/identity';
import { legacyVerifyWorkflowId, type VerifyClaimInput } from '../src/shared/verify';
import { AWAIT_CHILD, RETRIEVAL, WRITE } from './activity-options';
import { cancelSweepUpdate, pauseSweepUpdate, resumeSweepUpdate, setSweepBudgetUpdate, sweepProgressQuery } from '../src/shared/definitions/sweep';
import { startVerifyChild } from './verify-child';
import { startCheckChild } from './check-child';
import { sweepDocumentCheck } from '../src/shared/check/sweep-document';
import type { CheckDocumentInput } from '../src/shared/check/document';
import { hasPatch } from './has-patch';
import { PATCHES } from '../src/shared/patches';
import { FAILURE_TYPES } from '../src/shared/constants';

const { prepareRunClaims, loadRunClaims, findVerdicts, findDocumentVerdicts } = proxyActivities<Activities>(RETRIEVAL);
const { recordRunFailure, setRunStatus, findStuckVerifications, terminateWorkflows } = proxyActivities<Activities>(WRITE);
const { awaitVerification, awaitDocumentCheck } = proxyActivities<Activities>(AWAIT_CHILD);
const { paidSpendOf } = proxyActivities<Activities>(RETRIEVAL);

interface ClaimPage {
  from: number;
  /** The repeat whose verdicts `verdicts` holds. */
  repeat: number;
  claims: RunClaim[];
  /** Verdicts already stored for this page's verifications: workflow id → usage. */
  verdicts: Record<string, { tokens: number; costUsd: number }>;
}

/**
 * Verifies a run's claims with every (method × model) variant as a sliding window of
 * verifyClaimWorkflow children (ordered: one at a time, in dataset order). The claims live in
 * `<prefix>-run-claims` and are paged in; a verification whose verdict is already stored is
 * counted, never run again. Failures are recorded in `<prefix>-run-failures` and counted.
 *
 * Continue-as-new carries cursors, counters and the refs of running children. Children are
 * started with ParentClosePolicy.ABANDON, so they keep running across it, and the next run waits
 * for each through an `awaitVerification` activity (a heartbeating client-side wait for the
 * child's result): children stay plain verifyClaimWorkflows that know nothing of sweeps, and a
 * killed worker's wait is simply retried.
 */
export async function sweepWorkflow(input: SweepInput): Promise<SweepProgress> {
  const state = input.state ?? initialSweepState(input);
  const variantCount = input.variants.length;
  // Only a sweep with repeats asks for the patch (no marker in every sweep's history).
  const repeats = (input.repeats ?? 1) > 1 && hasPatch(PATCHES.sweepRepeats) ? (input.repeats ?? 1) : 1;
  /** Work items per claim: every variant, every repeat (progress and totals count them all). */
  const itemsPerClaim = variantCount * repeats;
  // Only a sweep with `check` asks for the patch: its items are documents, each a child document check.
  const check = input.check !== undefined && hasPatch(PATCHES.sweepChecksDocuments) ? input.check : undefined;
  const awaitItem = check ? awaitDocumentCheck : awaitVerification;
  const running = new Map<string, SweepChildRef>();
  let changes = 0;
  let progressed = false;
  let page: ClaimPage | undefined;
  /** Why an outcome could be neither recorded nor counted: the sweep fails with it (its state is kept for a re-run). */
  let lostOutcome: string | undefined;
  /** The first verification that failed on a configuration error (e.g. a parameter the server refuses): every other would too. */
  let configurationFailure: string | undefined;

  const progress = (): SweepProgress => ({ ...sweepProgress(input.runId, state, itemsPerClaim, running.size), ...(check ? { items: 'documents' as const } : {}) });
  const changed = () => {
    changes += 1;
  };
  const requireStatus = (allowed: SweepStatus[], action: string) => {
    if (!allowed.includes(state.status)) throw new Error(`cannot ${action} a sweep that is ${state.status}`);
  };

  setHandler(sweepProgressQuery, progress);
  setHandler(
    pauseSweepUpdate,
    () => {
      state.status = 'paused';
      changed();
      return progress();
    },
    { validator: () => requireStatus(['running'], 'pause') },
  );
  setHandler(
    resumeSweepUpdate,
    () => {
      state.status = 'running';
      // After a pause by the failure-rate policy, the policy judges the verifications from here on.
      if (state.pausedBy) state.failureBaseline = failureBaseline(state.counters);
      delete state.pausedBy;
      changed();
      return progress();
    },
    {
      validator: () => {
        requireStatus(['paused', 'budget-exhausted'], 'resume');
        if (budgetLeavesNoRoom()) throw new Error('the budget is exhausted; raise it first');
      },
    },
  );
  setHandler(
    cancelSweepUpdate,
    () => {
      state.status = 'cancelled';
      changed();
      return progress();
    },
    { validator: () => requireStatus(['running', 'paused', 'budget-exhausted'], 'cancel') },
  );
  setHandler(
    setSweepBudgetUpdate,
    (budget) => {
      state.budget = { ...state.budget, ...budget };
      if (state.status === 'budget-exhausted' && !budgetLeavesNoRoom()) state.status = 'running';
      changed();
      return progress();
    },
    {
      validator: (budget) => {
        const problem = findBudgetProblem(budget);
        if (problem) throw new Error(problem);
        if (isFinished(state.status)) throw new Error(`the sweep is already ${state.status}`);
      },
    },
  );

  /** Why the stuck-verification check ended a verification (noted before it is ended; its outcome is recorded with this reason). */
  const endedAsStuck = new Map<string, string>();
  let finished = false;
  const cancelledByTheSweep: SweepChildRef[] = [];
  /** Whether this execution reserves budget (the patch, asked once from the main loop; handlers only read it). */
  let reservesBudget: boolean | undefined;
  /** Spent, or (reserving) nothing runs and not one more verification fits. */
  /** The plan's per-verification estimate, when this execution reserves it (the patch, asked once from the main loop). */
  let plannedSpend: SweepBudget | undefined;
  const budgetLeavesNoRoom = () =>
    isBudgetExhausted(state.counters, state.budget) || (reservesBudget === true && running.size === 0 && budgetSlots(state.counters, state.budget, 0, plannedSpend) === 0);
  /** `changes` when the main loop parked, waiting for one; undefined while it runs. */
  let parkedAt: number | undefined;
  /**
   * The check issues its commands only while the main loop is parked and stays so, each in a pass of
   * its own: never in the same microtask drain as another branch's commands, whose order would then
   * depend on promise hops (and differ with interceptors, e.g. tracing).
   */
  const mainLoopParked = () => parkedAt === changes;

  /** Every so often, ends the running verifications stuck on a failing workflow task past the bound. */
  async function failStuckOnes(stuckAfterMs: number): Promise<void> {
    for (;;) {
      await condition(mainLoopParked);
      await sleep(stuckCheckIntervalMs(stuckAfterMs));
      if (finished) return;
      if (running.size === 0) continue;
      await condition(mainLoopParked);
      const stuck = await findStuckVerifications({ workflowIds: [...running.keys()], stuckAfterMs });
      if (stuck.length === 0) continue;
      for (const { workflowId, reason } of stuck) endedAsStuck.set(workflowId, reason);
      await condition(mainLoopParked);
      await terminateWorkflows({ workflows: stuck });
    }
  }

  /** Counts a child's outcome when it arrives; failures are recorded first, so none is lost. */
  function watch(ref: SweepChildRef, outcome: Promise<SweepChildOutcome>): void {
    running.set(ref.workflowId, ref);
    const counted = outcome.then(async (arrived) => {
      const stuckReason = endedAsStuck.get(ref.workflowId);
      const result: SweepChildOutcome = stuckReason !== undefined && !arrived.ok ? { ...arrived, reason: stuckReason, type: 'WorkflowTaskStuck' } : arrived;
      if (state.status === 'cancelled') {
        // A verification that finished before the cancel reached it counts as usual; the others are
        // cancelled (before the patch the sweep returned at once and these counts went nowhere).
        // Outcomes arriving with the cancel itself, before the main loop saw it, are kept too.
        if (result.ok) countOutcome(state.counters, result);
        else cancelledByTheSweep.push(ref);
        running.delete(ref.workflowId);
        changed();
        return;
      }
      if (!result.ok) {
        await recordRunFailure({
          runId: input.runId,
          ...ref,
          reason: result.reason,
          ...(result.type ? { type: result.type } : {}),
          sweepExecution: workflowInfo().firstExecutionRunId,
          ...(result.tokens !== undefined ? { tokens: result.tokens, costUsd: result.costUsd ?? 0 } : {}),
        });
      }
      countOutcome(state.counters, result);
      if (!result.ok) {
        tallyFailureReason((state.failureReasons ??= {}), result.reason, result.type);
        if (result.type === FAILURE_TYPES.configuration && configurationFailure === undefined && hasPatch(PATCHES.sweepStopsOnConfigurationError)) {
          configurationFailure = result.reason;
        } else if (state.status === 'running' && exceedsFailureRate(state.counters, state.failureBaseline ?? { verified: 0, failed: 0 }, input.failurePolicy)) {
          state.status = 'paused';
          state.pausedBy = 'failure-rate';
        }
      }
      running.delete(ref.workflowId);
      progressed = true;
      changed();
    });
    counted.catch((err: unknown) => {
      // Before the patch such a rejection went unhandled: every workflow task failed, for good.
      if (!hasPatch(PATCHES.sweepFailsOnLostOutcome)) throw err;
      lostOutcome ??= `the outcome of ${ref.workflowId} could not be recorded: ${describeFailure(err as Error)}`;
      changed();
    });
  }

  /**
   * The input of one (claim, variant) verification and its workflow id: its identity's, or for
   * sweeps started before identities existed (no `input.identity`), the old business key.
   */
  function verification(claim: RunClaim, variant: SweepVariant, repeat: number): { workflowId: string; verifyInput: VerifyClaimInput } {
    const { method, model } = variant;
    const rag = { topK: input.rag.topK, index: input.datasets[claim.datasetPosition]?.index ?? input.rag.index };
    const settings = settingsOfRepeat(settingsOfMethod(input.settings, method), method, repeat);
    const verifyInput: VerifyClaimInput = {
      schemaVersion: 1,
      runId: input.runId,
      claimId: claim.claimId,
      claim: claim.claim,
      method,
      dataset: claim.dataset,
      model,
      rag,
      ...(settings ? { settings } : {}),
      ...(input.limits ? { limits: input.limits } : {}),
      ...(input.batch && hasPatch(PATCHES.batchLane) ? { batch: input.batch } : {}),
    };
    // The sweep only counts: its children reply with a summary, so its history holds no traces.
    if (!input.identity) return { workflowId: legacyVerifyWorkflowId(input.runId, claim.claimId, method, model), verifyInput: { ...verifyInput, reply: 'summary' } };
    // Old inputs have no per-method prompts hashes: their context, and so their ids, stay as they were.
    const context = methodIdentityContext(input.identity, method);
    const hash = verificationHash(verifyInput, context);
    // Only an id with a long part asks for the patch (no marker in every sweep's history).
    const spellOutLongParts = [input.runId, claim.claimId, model].some(isLongIdPart) && !hasPatch(PATCHES.shortIdParts);
    return {
      workflowId: verifyWorkflowId({ runId: input.runId, claimId: claim.claimId, method, model, hash }, { spellOutLongParts }),
      verifyInput: { ...verifyInput, identity: { ...context, stamp: input.identity.stamp, hash }, reply: 'summary' },
    };
  }

  async function claimAt(ordinal: number, repeat: number): Promise<RunClaim> {
    if (!page || ordinal < page.from || ordinal >= page.from + page.claims.length || page.repeat !== repeat) {
      const claims = await loadRunClaims({ runId: input.runId, fromOrdinal: ordinal, size: input.pageSize ?? DEFAULT_SWEEP_PAGE_SIZE });
      page = { from: ordinal, repeat, claims, verdicts: check ? await storedDocuments(claims) : await findVerdicts({ workflowIds: claims.flatMap((claim) => input.variants.map((variant) => verification(claim, variant, repeat).workflowId)) }) };
    }
    const claim = page.claims[ordinal - page.from];
    if (!claim) throw new Error(`claim ${ordinal} of run ${input.runId} is missing from the run's claims`);
    return claim;
  }

  /** The page's documents already checked (by workflow id), with their spend. */
  async function storedDocuments(claims: RunClaim[]): Promise<ClaimPage['verdicts']> {
    const documents = claims.flatMap((claim) => input.variants.map((variant) => sweepDocumentCheck(input, check!, claim, variant)));
    const found = await findDocumentVerdicts({ documentIds: documents.map((document) => document.documentId) });
    return Object.fromEntries(documents.flatMap((document) => (found[document.documentId] ? [[document.workflowId, found[document.documentId]!]] : [])));
  }

  async function startDocumentChild(ref: SweepChildRef, checkInput: CheckDocumentInput): Promise<void> {
    running.set(ref.workflowId, ref);
    try {
      const child = await startCheckChild(ref.workflowId, checkInput);
      watch(
        ref,
        child.result().then(
          (summary): SweepChildOutcome => ({ ok: true, ...(summary.usage ?? { tokens: 0, costUsd: 0 }) }),
          (err: Error): SweepChildOutcome => ({ ok: false, reason: describeFailure(err), type: failureType(err) }),
        ),
      );
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      watch(ref, awaitDocumentCheck({ workflowId: ref.workflowId }));
    }
  }

  async function startVerificationChild(ref: SweepChildRef, verifyInput: VerifyClaimInput): Promise<void> {
    running.set(ref.workflowId, ref);
    try {
      const child = await startVerifyChild(ref.workflowId, verifyInput);
      watch(
        ref,
        child.result().then(
          (verdict): SweepChildOutcome => ({ ok: true, tokens: verdict.usage.totalTokens, costUsd: verdict.usage.costUsd }),
          (err: Error): SweepChildOutcome => ({ ok: false, reason: describeFailure(err), type: failureType(err), ...spentBeforeLimit(err) }),
        ),
      );
    } catch (err) {
      // Started before (by an earlier execution of this run, or completed after the verdict check): wait for that one.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      watch(ref, awaitVerification({ workflowId: ref.workflowId }));
    }
  }

  /** Takes the next `slots` work items: stored verdicts are counted, the others start as children. */
  async function startNext(slots: number): Promise<void> {
    const starts: Promise<void>[] = [];
    for (let i = 0; i < slots; i += 1) {
      const { ordinal, variant, repeat } = repeatedWorkItem(state.cursor, variantCount, state.claimCount);
      const claim = await claimAt(ordinal, repeat);
      const { method, model } = input.variants[variant]!;
      const document = check ? sweepDocumentCheck(input, check, claim, input.variants[variant]!) : undefined;
      const { workflowId, verifyInput } = document ? { workflowId: document.workflowId, verifyInput: undefined } : verification(claim, input.variants[variant]!, repeat);
      state.cursor += 1;
      const stored = page?.verdicts[workflowId];
      if (stored) {
        countOutcome(state.counters, { ok: true, ...stored });
        state.counters.reused += 1;
        continue;
      }
      const ref: SweepChildRef = { workflowId, ordinal, claimId: claim.claimId, dataset: claim.dataset, method, model, ...(repeat > 0 ? { repeat } : {}) };
      starts.push(document ? startDocumentChild(ref, document.checkInput) : startVerificationChild(ref, verifyInput!));
    }
    await Promise.all(starts);
    progressed = true;
    changed();
  }

  /** Marks the run failed where it can, then fails the sweep: a re-run of `verity sweep run` starts it afresh and reuses every stored verdict. */
  async function failForLostOutcome(reason: string): Promise<never> {
    await setRunStatus({ runId: input.runId, status: 'failed' }).catch(() => undefined);
    throw ApplicationFailure.nonRetryable(`${reason}; the sweep stopped: run \`verity sweep run\` again to resume it`, 'SweepOutcomeLost');
  }

  /** Stops at once on a configuration error: the verifications in flight are cancelled, the run is marked failed, one line says why. */
  async function stopOnConfigurationError(reason: string): Promise<never> {
    await Promise.all([...running.keys()].map((workflowId) => getExternalWorkflowHandle(workflowId).cancel().catch(() => undefined)));
    await setRunStatus({ runId: input.runId, status: 'failed' }).catch(() => undefined);
    throw ApplicationFailure.nonRetryable(`the sweep stopped on a configuration error: ${reason.split('\n')[0] ?? reason}`, FAILURE_TYPES.configuration);
  }

  /** How many more verifications fit the budget (unbounded without one, or in executions started before the patch). */
  function budgetRoom(): number {
    if (!hasBudget(state.budget)) return Number.POSITIVE_INFINITY;
    if (reservesBudget === undefined) {
      reservesBudget = hasPatch(PATCHES.sweepReservesBudget);
      if (reservesBudget && input.plannedPerVerification !== undefined && hasPatch(PATCHES.sweepReservesPlannedSpend)) plannedSpend = input.plannedPerVerification;
    }
    return reservesBudget ? budgetSlots(state.counters, state.budget, running.size, plannedSpend) : Number.POSITIVE_INFINITY;
  }

  /**
   * After a cancel: waits (bounded) for the cancelled verifications to close, their paid calls in
   * flight included, then adds what they paid to the counters and records each as cancelled.
   */
  async function countCancelledSpend(): Promise<void> {
    await condition(() => running.size === 0, CANCELLED_CLOSE_WAIT);
    const cancelled = [...cancelledByTheSweep, ...running.values()];
    if (cancelled.length === 0) return;
    const spend = await paidSpendOf({ workflowIds: cancelled.map((ref) => ref.workflowId) });
    for (const ref of cancelled) {
      const paid = spend[ref.workflowId] ?? { calls: 0, tokens: 0, costUsd: 0 };
      state.counters.tokens += paid.tokens;
      state.counters.costUsd += paid.costUsd;
      state.counters.cancelled = (state.counters.cancelled ?? 0) + 1;
      await recordRunFailure({
        runId: input.runId,
        ...ref,
        reason: `cancelled with the sweep (${paid.calls} paid LLM call${paid.calls === 1 ? '' : 's'} counted)`,
        type: CANCELLED_WITH_SWEEP,
        sweepExecution: workflowInfo().firstExecutionRunId,
        tokens: paid.tokens,
        costUsd: paid.costUsd,
      });
    }
    running.clear();
  }

  const historyIsLong = () => {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= (input.maxHistoryEvents ?? DEFAULT_SWEEP_MAX_HISTORY_EVENTS);
  };

  const stuckAfterMs = input.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
  if (stuckAfterMs > 0 && hasPatch(PATCHES.sweepFailsStuckVerifications)) {
    // The check only reads and ends other workflows: if it fails for good, the sweep goes on without it.
    failStuckOnes(stuckAfterMs).catch(() => undefined);
  }
  if (!input.state) state.claimCount = (await prepareRunClaims({ runId: input.runId, datasets: input.datasets, seed: input.seed })).claimCount;
  for (const ref of state.inFlight) watch(ref, awaitItem({ workflowId: ref.workflowId }));
  state.inFlight = [];

  let reportedStatus: SweepStatus | undefined = input.state?.status;
  for (;;) {
    if (lostOutcome !== undefined) await failForLostOutcome(lostOutcome);
    if (configurationFailure !== undefined) await stopOnConfigurationError(configurationFailure);
    const remaining = totalItems(state, itemsPerClaim) - state.cursor;
    if (state.status === 'running' && remaining > 0 && (isBudgetExhausted(state.counters, state.budget) || (running.size === 0 && budgetRoom() === 0))) state.status = 'budget-exhausted';
    if (state.status === 'running' && remaining === 0 && running.size === 0) state.status = 'completed';
    if (state.status !== reportedStatus) {
      reportedStatus = state.status;
      await setRunStatus({ runId: input.runId, status: state.status });
      continue;
    }
    if (state.status === 'completed') break;
    if (state.status === 'cancelled') {
      await Promise.all([...running.keys()].map((workflowId) => getExternalWorkflowHandle(workflowId).cancel()));
      if (hasPatch(PATCHES.sweepCountsCancelledSpend)) await countCancelledSpend();
      break;
    }
    // Only after some progress, so that a tiny threshold cannot loop through empty runs.
    if (progressed && historyIsLong()) {
      await condition(allHandlersFinished);
      return await continueAsNew<typeof sweepWorkflow>({
        ...input,
        state: { ...state, inFlight: [...running.values()], continuedAsNew: state.continuedAsNew + 1 },
      });
    }
    setCurrentDetails(sweepProgressDetails(progress()));
    const slots = state.status === 'running' ? Math.min(freeSlots(input, running.size, remaining), budgetRoom()) : 0;
    if (slots > 0) {
      await startNext(slots);
      continue;
    }
    const seen = changes;
    parkedAt = seen;
    await condition(() => changes !== seen);
    parkedAt = undefined;
  }
  finished = true;
  await condition(allHandlersFinished);
  return progress();
}
