import { Context } from '@temporalio/activity';
import { type Client, WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { RunClaimStore } from '../src/runs/run-claim-store';
import { RunInputError, sampleRunClaims } from '../src/runs/run-claims';
import type { RunFailure, RunFailureStore } from '../src/runs/run-failure-store';
import type { RunStatus } from '../src/runs/run-manifest';
import type { RunStore } from '../src/runs/run-store';
import { FAILURE_TYPES } from '../src/shared/constants';
import { describeFailure, failureType } from '../src/shared/failure';
import type { RunClaim, SweepChildOutcome, SweepDatasetRef } from '../src/shared/sweep';
import type { VerdictStore } from '../src/verdicts/verdict-store';
import type { verifyClaimWorkflow } from '../workflows/verify-claim.workflow';
import type { checkDocumentWorkflow } from '../workflows/check-document.workflow';
import { toEsFailure } from './support/es-failure';
import { spentBeforeLimit } from '../src/shared/verification-limits';
import { findStuckWorkflows, stuckReason } from '../src/client/stuck-workflows';

export const AWAIT_HEARTBEAT_INTERVAL_MS = 10_000;

/** JSON of the claims one loadRunClaims returns, at most: far below Temporal's 2 MB payload limit. */
export const MAX_CLAIM_PAGE_BYTES = 256 * 1024;

export interface SweepActivityDeps {
  runs: RunStore;
  runClaims: RunClaimStore;
  runFailures: RunFailureStore;
  verdicts: VerdictStore;
  /** A Temporal client, connected on first use (only awaitVerification needs one). */
  temporal(): Promise<Client>;
}

export function createSweepActivities(deps: SweepActivityDeps) {
  return {
    /** Loads and samples the run's datasets once and stores the claims under `<run>/<ordinal>`. */
    async prepareRunClaims(input: { runId: string; datasets: SweepDatasetRef[]; seed: number }): Promise<{ claimCount: number }> {
      let claims: RunClaim[];
      try {
        claims = await sampleRunClaims(input.runId, input.datasets, input.seed);
      } catch (err) {
        if (err instanceof RunInputError) throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.invalidInput);
        throw err;
      }
      await esCall(() => deps.runClaims.storeAll(claims));
      return { claimCount: claims.length };
    },

    /** A page of the run's claims, cut short where it would exceed MAX_CLAIM_PAGE_BYTES. */
    async loadRunClaims(input: { runId: string; fromOrdinal: number; size: number }): Promise<RunClaim[]> {
      const claims = await esCall(() => deps.runClaims.page(input.runId, input.fromOrdinal, input.size, MAX_CLAIM_PAGE_BYTES));
      const [first] = claims;
      // Only a claim stored before claims were limited can be this large: fail, do not retry forever.
      if (first && claims.length === 1 && Buffer.byteLength(JSON.stringify(first)) > MAX_CLAIM_PAGE_BYTES) {
        throw ApplicationFailure.nonRetryable(`claim ${first.claimId} (ordinal ${first.ordinal}) of run ${input.runId} is larger than ${MAX_CLAIM_PAGE_BYTES / 1024} KB; start the run anew from a checked dataset`, FAILURE_TYPES.invalidInput);
      }
      return claims;
    },

    /** Which of these verifications already have a stored verdict, with their usage. */
    async findVerdicts(input: { workflowIds: string[] }): Promise<Record<string, { tokens: number; costUsd: number }>> {
      return esCall(() => deps.verdicts.findUsage(input.workflowIds));
    },

    async recordRunFailure(failure: RunFailure): Promise<void> {
      await esCall(() => deps.runFailures.record(failure));
    },

    /** Updates the run manifest's status; runs started without a manifest (tests) have none to update. */
    async setRunStatus(input: { runId: string; status: RunStatus }): Promise<void> {
      await esCall(() => deps.runs.setStatus(input.runId, input.status));
    },

    /** Waits for a verification started by an earlier run of the sweep and reports its outcome. */
    async awaitVerification(input: { workflowId: string }): Promise<SweepChildOutcome> {
      return awaitChild(deps, input.workflowId, 'verification', async (client) => {
        const verdict = await client.workflow.getHandle<typeof verifyClaimWorkflow>(input.workflowId).result();
        return { tokens: verdict.usage.totalTokens, costUsd: verdict.usage.costUsd };
      });
    },

    /**
     * Which of these verifications have had a workflow task (their own or a child's) failing for
     * `stuckAfterMs`, each with the reason to record: reads only (the sweep notes the reasons, then ends them).
     */
    async findStuckVerifications(input: { workflowIds: string[]; stuckAfterMs: number }): Promise<{ workflowId: string; reason: string }[]> {
      const client = await deps.temporal();
      const stuckOnes: { workflowId: string; reason: string }[] = [];
      for (const workflowId of input.workflowIds) {
        Context.current().heartbeat();
        const now = new Date();
        const [stuck] = (await findStuckWorkflows(client, [workflowId], now)).filter((s) => now.getTime() - s.since.getTime() >= input.stuckAfterMs);
        if (stuck) stuckOnes.push({ workflowId, reason: stuckReason(workflowId, stuck, now) });
      }
      return stuckOnes;
    },

    /** Terminates these workflows with their reasons (one already closed or gone is skipped). */
    async terminateWorkflows(input: { workflows: { workflowId: string; reason: string }[] }): Promise<void> {
      const client = await deps.temporal();
      for (const { workflowId, reason } of input.workflows) {
        try {
          await client.workflow.getHandle(workflowId).terminate(reason);
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }
      }
    },

    /** Waits for a document check (a sweep with `check`) started by an earlier run of the sweep and reports its outcome. */
    async awaitDocumentCheck(input: { workflowId: string }): Promise<SweepChildOutcome> {
      return awaitChild(deps, input.workflowId, 'document check', async (client) => {
        const summary = await client.workflow.getHandle<typeof checkDocumentWorkflow>(input.workflowId).result();
        return summary.usage ?? { tokens: 0, costUsd: 0 };
      });
    },
  };
}

/** A child's outcome, waited for with heartbeats (a killed worker's wait is simply retried). */
async function awaitChild(deps: SweepActivityDeps, workflowId: string, what: string, spend: (client: Client) => Promise<{ tokens: number; costUsd: number }>): Promise<SweepChildOutcome> {
  const context = Context.current();
  const client = await deps.temporal();
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), AWAIT_HEARTBEAT_INTERVAL_MS);
  try {
    const spent = await Promise.race([spend(client), context.cancelled]);
    return { ok: true, ...spent };
  } catch (err) {
    if (err instanceof WorkflowFailedError) return { ok: false, reason: describeFailure(err), type: failureType(err) ?? 'WorkflowFailed', ...spentBeforeLimit(err) };
    if (err instanceof WorkflowNotFoundError) return { ok: false, reason: `${what} ${workflowId} not found`, type: 'NotFound' };
    throw err;
  } finally {
    clearInterval(timer);
  }
}

async function esCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toEsFailure(err);
  }
}
