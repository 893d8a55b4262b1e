import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { SweepBudget, SweepProgress } from '../sweep';

/** Where a sweep stands: totals, counters, tokens and cost so far, status. */
export const sweepProgressQuery = defineQuery<SweepProgress>('sweepProgress');

/** Stop starting verifications (those running finish); rejected unless the sweep is running. */
export const pauseSweepUpdate = defineUpdate<SweepProgress>('pauseSweep');
/** Start verifications again after a pause; rejected while the budget is exhausted. */
export const resumeSweepUpdate = defineUpdate<SweepProgress>('resumeSweep');
/** Stop the sweep for good: running verifications are cancelled, the run is marked cancelled. */
export const cancelSweepUpdate = defineUpdate<SweepProgress>('cancelSweep');
/** Replace the budget; a sweep paused by its budget resumes when the new one is not exhausted. */
export const setSweepBudgetUpdate = defineUpdate<SweepProgress, [SweepBudget]>('setSweepBudget');
