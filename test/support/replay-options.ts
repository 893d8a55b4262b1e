import type { ReplayWorkerOptions } from '@temporalio/worker';
import { workflowBundleOf } from '../../src/worker/workflow-bundle';

/** Replays with the bundle verity's workers run (workflows and their interceptors), bundled once per test run. */
export async function replayOptions(): Promise<ReplayWorkerOptions> {
  return { workflowBundle: await workflowBundleOf() };
}
