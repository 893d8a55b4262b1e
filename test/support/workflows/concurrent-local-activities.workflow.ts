import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { proxyOrderedLocalActivities } from '../../../workflows/local-activity-order';

export interface PauseActivities {
  /** Resolves after `ms` (a short Elasticsearch read, say). */
  pause(ms: number): Promise<number>;
}

/**
 * Test-only: two concurrent branches, like Tool-MAD's debaters. A's local activity finishes first,
 * and A takes several promise hops before its next command (a slower local activity); B's finishes
 * next and B schedules a regular activity at once. A first run delivers the two results in two
 * activations (A's command first); a replay finds both markers before A's next one and delivers
 * them in one activation, where B's fewer hops would win.
 */
export async function concurrentLocalActivitiesWorkflow(ordered: boolean): Promise<number[]> {
  const local = ordered
    ? proxyOrderedLocalActivities<PauseActivities>({ startToCloseTimeout: '10 seconds' })
    : proxyLocalActivities<PauseActivities>({ startToCloseTimeout: '10 seconds' });
  const regular = proxyActivities<PauseActivities>({ startToCloseTimeout: '10 seconds' });
  return Promise.all([
    (async () => {
      const first = await local.pause(5);
      for (let i = 0; i < 6; i += 1) await Promise.resolve();
      return first + (await local.pause(800));
    })(),
    (async () => (await local.pause(400)) + (await regular.pause(0)))(),
  ]);
}
