import { type ActivityOptions, type LocalActivityOptions, proxyActivities } from '@temporalio/workflow';
import { proxyOrderedLocalActivities } from './local-activity-order';
import type { Activities } from '../activities';
import { RETRIEVAL, WRITE } from './activity-options';
import { hasPatch } from './has-patch';
import { PATCHES } from '../src/shared/patches';

/**
 * Patch id of running short Elasticsearch reads and writes (and the short embedding / policy
 * steps next to them) as local activities: they run in the workflow's own worker and complete
 * within the workflow task, with no activity task round trip through the server. Executions
 * recorded before the patch keep their regular activities on replay.
 */
export const LOCAL_SHORT_STEPS_PATCH = PATCHES.localShortSteps;

/** Local activities get the same timeouts and retries as their regular presets. */
function asLocal(options: ActivityOptions): LocalActivityOptions {
  const { startToCloseTimeout, scheduleToCloseTimeout, retry } = options;
  return { startToCloseTimeout, scheduleToCloseTimeout, retry };
}

const regularReads = proxyActivities<Activities>(RETRIEVAL);
const regularWrites = proxyActivities<Activities>(WRITE);
const localReads = proxyOrderedLocalActivities<Activities>(asLocal(RETRIEVAL));
const localWrites = proxyOrderedLocalActivities<Activities>(asLocal(WRITE));

/**
 * Short steps, callable plainly or with `.executeWithOptions({ summary }, [input])` so the
 * Temporal UI names them (`memory recall · 3 entities`, `store verdict · SUPPORTED`).
 */
export type ShortSteps = {
  [K in keyof Activities]: Activities[K] & {
    executeWithOptions(options: { summary: string }, args: Parameters<Activities[K]>): ReturnType<Activities[K]>;
  };
};

/** True once this execution runs short steps as local activities (always, for new executions). */
export function shortStepsAreLocal(): boolean {
  return hasPatch(LOCAL_SHORT_STEPS_PATCH);
}

/** Short reads (retrieval, memory recall, catalog, similarity): local activities unless replaying an older history. */
export function shortReads(): ShortSteps {
  return shortStepsAreLocal() ? localReads : regularReads;
}

/** Short idempotent writes (verdict, memory update, episode): local activities unless replaying an older history. */
export function shortWrites(): ShortSteps {
  return shortStepsAreLocal() ? localWrites : regularWrites;
}

/** Local activities with `options` (for presets other than RETRIEVAL and WRITE); callers check shortStepsAreLocal(). */
export function localActivities(options: ActivityOptions): ShortSteps {
  return proxyOrderedLocalActivities<Activities>(asLocal(options));
}
